// A threshold on a metric that got no sample, as k6's browser examples have it (`checks: ['rate==1.0']` in a script
// with no check), and on a tagged sub-metric no request reaches (Thresholds, "Thresholds on tags"): k6 judges an empty
// trend or counter on the 0 its sink holds and skips an empty rate, so the test passes and exits 0
// (https://grafana.com/docs/k6/latest/using-k6/thresholds/).
import http from 'k6/http';

export const options = {
  vus: 1,
  iterations: 2,
  thresholds: {
    checks: ['rate==1.0'],
    'http_req_duration{name:never-requested}': ['p(95)<500'],
    'http_reqs{name:never-requested}': ['count<1'],
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/json`);
}
