// Follows k6's constant-arrival-rate page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/constant-arrival-rate/)
// with an async default function: 10 iterations per second for 2 s.
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'constant-arrival-rate',
      duration: '2s',
      rate: 10,
      timeUnit: '1s',
      preAllocatedVUs: 2,
      maxVUs: 10,
    },
  },
};

export default async function () {
  await http.asyncRequest('GET', `${__ENV.BASE_URL}/`);
}
