// Follows k6's Thresholds page, "Abort a test when a threshold is crossed"
// (https://grafana.com/docs/k6/latest/using-k6/thresholds/#abort-a-test-when-a-threshold-is-crossed): a 10-minute run
// whose every request fails, so the abortOnFail threshold stops it long before its end.

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  duration: '10m',
  thresholds: {
    http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true }],
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/status/503`);
  sleep(0.1);
}
