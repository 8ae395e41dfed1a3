// Follows k6's http.asyncRequest() reference (https://grafana.com/docs/k6/latest/javascript-api/k6-http/asyncrequest/),
// "Using http.asyncRequest() to issue a POST request", under per-vu-iterations.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  scenarios: {
    contacts: {
      executor: 'per-vu-iterations',
      vus: 2,
      iterations: 3,
    },
  },
};

export default async function () {
  const data = { name: 'Bert' };
  // Using a JSON string as body
  const res = await http.asyncRequest('POST', `${__ENV.BASE_URL}/json`, JSON.stringify(data), {
    headers: { 'Content-Type': 'application/json' },
  });
  check(res, { 'json echoed': (r) => r.json().name === 'Bert' });
  // Using an object as body, the headers will automatically include
  // 'Content-Type: application/x-www-form-urlencoded'.
  const form = await http.asyncRequest('POST', `${__ENV.BASE_URL}/form`, data);
  check(form, { 'form echoed': (r) => r.json().name === 'Bert' });
}
