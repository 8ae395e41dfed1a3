// Follows k6's constant-vus page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/constant-vus/), its
// example with 3 VUs for 1 s instead of 10 for 30 s.

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'constant-vus',
      vus: 3,
      duration: '1s',
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
  // Injecting sleep
  // Total iteration time is sleep + time to finish request.
  sleep(0.5);
}
