// Follows k6's per-vu-iterations page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/per-vu-iterations/),
// its example with 4 VUs of 5 iterations each; each request names its VU (__VU) so the target can count per VU.

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    contacts: {
      executor: 'per-vu-iterations',
      vus: 4,
      iterations: 5,
      maxDuration: '30s',
    },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/anything?vu=${__VU}`);
  // Injecting sleep
  // Sleep time is 100ms. Total iteration time is sleep + time to finish request.
  sleep(0.1);
}
