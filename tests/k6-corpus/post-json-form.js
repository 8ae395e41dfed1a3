// Follows k6's http.post() reference (https://grafana.com/docs/k6/latest/javascript-api/k6-http/post/): a JSON string
// body with its Content-Type, then an object body, which k6 sends x-www-form-urlencoded.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  iterations: 3,
};

export default function () {
  const data = { name: 'Bert' };
  // Using a JSON string as body
  let res = http.post(`${__ENV.BASE_URL}/json`, JSON.stringify(data), {
    headers: { 'Content-Type': 'application/json' },
  });
  check(res, { 'json echoed': (r) => r.json().name === 'Bert' });
  // Using an object as body, the headers will automatically include
  // 'Content-Type: application/x-www-form-urlencoded'.
  res = http.post(`${__ENV.BASE_URL}/form`, data);
  check(res, { 'form echoed': (r) => r.json().name === 'Bert' });
}
