// Follows k6's http.asyncRequest() reference (https://grafana.com/docs/k6/latest/javascript-api/k6-http/asyncrequest/)
// and http.get()'s (https://grafana.com/docs/k6/latest/javascript-api/k6-http/get/): an async default function that
// makes a blocking request, then awaits an async one, then sleeps.

import { check, sleep } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 4,
};

export default async function () {
  const res = http.get(`${__ENV.BASE_URL}/`);
  check(res, { 'sync get is 200': (r) => r.status === 200 });
  const echoed = await http.asyncRequest('POST', `${__ENV.BASE_URL}/json`, JSON.stringify({ name: 'Bert' }), {
    headers: { 'Content-Type': 'application/json' },
  });
  check(echoed, { 'async post echoed': (r) => r.json().name === 'Bert' });
  sleep(0.1);
}
