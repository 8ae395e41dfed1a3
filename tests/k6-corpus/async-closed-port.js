// Follows k6's http.asyncRequest() reference (https://grafana.com/docs/k6/latest/javascript-api/k6-http/asyncrequest/);
// run with BASE_URL on a port nothing listens on, so no request ever reaches a server.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 4,
};

export default async function () {
  const res = await http.asyncRequest('GET', `${__ENV.BASE_URL}/`);
  check(res, { 'status is 200': (r) => r.status === 200 });
}
