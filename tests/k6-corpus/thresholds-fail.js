// Follows k6's Thresholds page, "Fail a load test using checks" (https://grafana.com/docs/k6/latest/using-k6/thresholds/#fail-a-load-test-using-checks),
// against an endpoint that answers 500 while the check expects 200, so both thresholds fail.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 6,
  thresholds: {
    // the rate of successful checks should be higher than 90%
    checks: ['rate>0.9'],
    http_req_failed: ['rate<0.01'],
  },
};

export default function () {
  const res = http.get(`${__ENV.BASE_URL}/status/500`);
  check(res, {
    'status is 200': (r) => r.status === 200,
  });
}
