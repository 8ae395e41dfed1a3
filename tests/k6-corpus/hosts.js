// options.hosts as k6's options reference shows it: names that resolve nowhere, sent to the corpus target.
// The target's port comes from BASE_URL; the URLs keep their names (Host header and all).

import { check } from 'k6';
import http from 'k6/http';
import { WebSocket } from 'k6/websockets';

const port = new URL(__ENV.BASE_URL).port;

export const options = {
  iterations: 1,
  hosts: {
    'pizza.test.invalid': `127.0.0.1:${port}`,
    '*.wild.invalid': `127.0.0.1:${port}`,
  },
  thresholds: { checks: ['rate==1.0'] },
};

export default async function () {
  const named = http.get('http://pizza.test.invalid/anything/named');
  check(named, { 'a named host reaches the target': (r) => r.status === 200 && r.json('headers.host') === 'pizza.test.invalid' });
  const wild = http.get('http://api.wild.invalid/anything/wild');
  check(wild, { 'a wildcard host reaches the target': (r) => r.status === 200 && r.json('headers.host') === 'api.wild.invalid' });
  const echoed = await new Promise((resolve) => {
    const ws = new WebSocket('ws://pizza.test.invalid/ws');
    ws.onopen = () => ws.send('through hosts');
    ws.onmessage = (e) => {
      ws.close();
      resolve(e.data);
    };
    ws.onerror = () => resolve(null);
  });
  check(echoed, { 'a WebSocket reaches the target': (d) => d === 'through hosts' });
}
