// Follows the example of k6's fs module (https://grafana.com/docs/k6/next/javascript-api/k6-experimental/fs/open/):
// "const file = await open('bonjour.txt');" at the top level of the script, in the init context. Here with the
// classic open() (awaiting a value that is no promise gives the value) and a local module whose top level awaits too.
import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { config } from './lib/await-config.js';

const payload = await open('./data/payload.txt');
const copies = await Promise.resolve(config.copies);
const posted = new Counter('posted_copies');

export const options = {
  vus: 2,
  iterations: 4,
};

export default function () {
  for (let i = 0; i < copies; i++) {
    const res = http.post(`${__ENV.BASE_URL}${config.path}`, payload, { headers: { 'Content-Type': 'text/plain' } });
    check(res, { 'posted after the init awaited': (r) => r.status === 200 });
    posted.add(1);
  }
  sleep(0.01);
}
