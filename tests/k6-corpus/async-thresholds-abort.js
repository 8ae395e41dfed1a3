// Follows k6's Thresholds page, "Abort a test when a threshold is crossed"
// (https://grafana.com/docs/k6/latest/using-k6/thresholds/#abort-a-test-when-a-threshold-is-crossed), with async
// requests: a 10-minute run whose every request fails, stopped by its abortOnFail threshold.
import http from 'k6/http';
import { setTimeout } from 'k6/timers';

export const options = {
  vus: 2,
  duration: '10m',
  thresholds: {
    http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true }],
  },
};

export default async function () {
  await http.asyncRequest('GET', `${__ENV.BASE_URL}/status/503`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
