// Follows k6's http.asyncRequest() reference (https://grafana.com/docs/k6/latest/javascript-api/k6-http/asyncrequest/),
// "Promise.race to determine which requests finish first": the two slower requests still finish within the iteration.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 4,
};

export default async () => {
  const one = http.asyncRequest('GET', `${__ENV.BASE_URL}/delay?ms=10`);
  const two = http.asyncRequest('GET', `${__ENV.BASE_URL}/delay?ms=150`);
  const three = http.asyncRequest('GET', `${__ENV.BASE_URL}/delay?ms=300`);
  const res = await Promise.race([one, two, three]);
  check(res, { 'the winner is 200': (r) => r.status === 200 });
};
