// Follows k6's fail() reference (https://grafana.com/docs/k6/latest/javascript-api/k6/fail/): "Aborting the current
// script iteration if a check fails". Every second iteration asks for a 500; the counter after fail() counts the others.

import { check, fail } from 'k6';
import { scenario } from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const completed = new Counter('iterations_past_fail');

export const options = {
  vus: 2,
  iterations: 6,
};

export default function () {
  const status = scenario.iterationInTest % 2 === 0 ? 200 : 500;
  const res = http.get(`${__ENV.BASE_URL}/status/${status}`);
  if (
    !check(res, {
      'status code MUST be 200': (res) => res.status === 200,
    })
  ) {
    fail('status code was *not* 200');
  }
  completed.add(1);
}
