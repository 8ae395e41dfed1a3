// Follows k6's constant-arrival-rate page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/constant-arrival-rate/),
// its example at 10 iterations per second for 2 s (the page: 30 per second for 30 s).
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'constant-arrival-rate',
      // How long the test lasts
      duration: '2s',
      // How many iterations per timeUnit
      rate: 10,
      // Start `rate` iterations per second
      timeUnit: '1s',
      // Pre-allocate 2 VUs before starting the test
      preAllocatedVUs: 2,
      // Spin up a maximum of 10 VUs to sustain the defined
      // constant arrival rate.
      maxVUs: 10,
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
}
