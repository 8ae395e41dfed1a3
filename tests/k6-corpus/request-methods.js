// Follows k6's http.request(), http.put(), http.patch(), http.del(), http.head() and http.options() references
// (https://grafana.com/docs/k6/latest/javascript-api/k6-http/): each method once an iteration, each response checked.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  iterations: 2,
};

export default function () {
  const url = `${__ENV.BASE_URL}/anything`;
  const data = { name: 'Bert' };
  const params = { headers: { 'Content-Type': 'application/json' } };
  const responses = {
    POST: http.request('POST', url, JSON.stringify(data), params),
    PUT: http.put(url, JSON.stringify(data), params),
    PATCH: http.patch(url, JSON.stringify(data), params),
    DELETE: http.del(url),
    HEAD: http.head(url),
    OPTIONS: http.options(url),
  };
  for (const [method, res] of Object.entries(responses)) {
    check(res, { [`${method} answered 200`]: (r) => r.status === 200 });
  }
  check(responses.PUT, { 'PUT body arrived': (r) => JSON.parse(r.json().body).name === 'Bert' });
  check(responses.HEAD, { 'HEAD has no body': (r) => !r.body });
}
