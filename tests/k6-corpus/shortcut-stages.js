// Follows k6's "Running k6" page, "Ramp VUs up and down in stages"
// (https://grafana.com/docs/k6/latest/get-started/running-k6/#ramp-vus-up-and-down-in-stages): `options.stages`, a
// check on the status and `sleep(1)`, shortened to two 1 s stages.

import { check, sleep } from 'k6';
import http from 'k6/http';

export const options = {
  stages: [
    { duration: '1s', target: 3 },
    { duration: '1s', target: 0 },
  ],
};

export default function () {
  const res = http.get(`${__ENV.BASE_URL}/`);
  check(res, { 'status was 200': (r) => r.status === 200 });
  sleep(0.3);
}
