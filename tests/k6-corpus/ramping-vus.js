// Follows k6's ramping-vus page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/ramping-vus/), its
// example ramping from 0 to 4 VUs over 1 s and back to 0 over 1 s (the page: 10 VUs, 20 s and 10 s).

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '1s', target: 4 },
        { duration: '1s', target: 0 },
      ],
      gracefulRampDown: '0s',
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
  // Injecting sleep
  // Sleep time is 500ms. Total iteration time is sleep + time to finish request.
  sleep(0.5);
}
