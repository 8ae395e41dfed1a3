// Follows k6's shared-iterations page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/shared-iterations/),
// its example with 20 iterations shared by 5 VUs instead of 200 by 10.

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'shared-iterations',
      vus: 5,
      iterations: 20,
      maxDuration: '30s',
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
  // Injecting sleep
  // Sleep time is 100ms. Total iteration time is sleep + time to finish request.
  sleep(0.1);
}
