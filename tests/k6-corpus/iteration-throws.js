// Follows k6's "Test lifecycle" page, "The default function life-cycle"
// (https://grafana.com/docs/k6/latest/using-k6/test-lifecycle/#the-default-function-life-cycle): an exception ends the
// iteration, the VU starts the next. Every second iteration parses an HTML page as JSON and throws.

import { scenario } from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const parsed = new Counter('parsed_bodies');

export const options = {
  vus: 2,
  iterations: 6,
};

export default function () {
  const path = scenario.iterationInTest % 2 === 0 ? '/json' : '/';
  const res = http.get(`${__ENV.BASE_URL}${path}`);
  JSON.parse(res.body);
  parsed.add(1);
}
