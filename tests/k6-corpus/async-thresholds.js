// Follows k6's Thresholds page (https://grafana.com/docs/k6/latest/using-k6/thresholds/), "Threshold syntax", with
// async requests: a threshold on http_reqs that holds and one on http_req_failed that fails (every request is a 404).
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 4,
  thresholds: {
    http_reqs: ['count==4'],
    http_req_failed: ['rate<0.01'],
  },
};

export default async function () {
  await http.asyncRequest('GET', `${__ENV.BASE_URL}/status/404`);
}
