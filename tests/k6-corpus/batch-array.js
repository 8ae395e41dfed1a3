// Follows k6's http.batch() reference, "Example with arrays" and "Example with array of strings"
// (https://grafana.com/docs/k6/latest/javascript-api/k6-http/batch/).

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  iterations: 3,
};

export default function () {
  const responses = http.batch([
    ['GET', `${__ENV.BASE_URL}/`, null, { tags: { ctype: 'html' } }],
    ['GET', `${__ENV.BASE_URL}/json`, null, { tags: { ctype: 'json' } }],
    ['POST', `${__ENV.BASE_URL}/form`, { hello: 'world' }, { tags: { ctype: 'form' } }],
  ]);
  check(responses[0], {
    'main page status was 200': (res) => res.status === 200,
  });
  check(responses[2], {
    'form posted in a batch': (res) => res.json().hello === 'world',
  });
  const strings = http.batch([`${__ENV.BASE_URL}/`, `${__ENV.BASE_URL}/status/204`]);
  check(strings[1], {
    'second page 204': (res) => res.status === 204,
  });
}
