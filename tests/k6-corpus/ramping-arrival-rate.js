// Follows k6's ramping-arrival-rate page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/ramping-arrival-rate/),
// its example in two 1 s stages: from 5 to 10 iterations per second, then 10 per second (17.5 arrivals, so at most 18).
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'ramping-arrival-rate',
      // Start iterations per `timeUnit`
      startRate: 5,
      // Start `startRate` iterations per second
      timeUnit: '1s',
      // Pre-allocate necessary VUs.
      preAllocatedVUs: 2,
      maxVUs: 10,
      stages: [
        // Linearly ramp-up to starting 10 iterations per `timeUnit` over the first second.
        { target: 10, duration: '1s' },
        // Continue starting 10 iterations per `timeUnit` for the following second.
        { target: 10, duration: '1s' },
      ],
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
}
