// options.hosts as k6's options reference shows it: names that resolve nowhere, sent to the corpus target.
// The target's port comes from BASE_URL; the URLs keep their names (Host header and all).

import { check } from 'k6';
import http from 'k6/http';

const port = new URL(__ENV.BASE_URL).port;

export const options = {
  iterations: 1,
  hosts: {
    'pizza.test.invalid': `127.0.0.1:${port}`,
    '*.wild.invalid': `127.0.0.1:${port}`,
  },
  thresholds: { checks: ['rate==1.0'] },
};

export default function () {
  const named = http.get('http://pizza.test.invalid/anything/named');
  check(named, { 'a named host reaches the target': (r) => r.status === 200 && r.json('headers.host') === 'pizza.test.invalid' });
  const wild = http.get('http://api.wild.invalid/anything/wild');
  check(wild, { 'a wildcard host reaches the target': (r) => r.status === 200 && r.json('headers.host') === 'api.wild.invalid' });
}
