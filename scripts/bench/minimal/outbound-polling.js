// Minimal outbound-polling: trigger a call, poll its status with the same backoff until it is terminal, poll once more.

import { sleep } from 'k6';
import http from 'k6/http';
import { profile, secret, shape } from './common.js';

export const options = { scenarios: { outbound: shape('8s') } };
const base = `${profile.hosts.base_url}/v1/outbound-calling`;
const token = secret('outbound_token');
const post = { headers: { 'Content-Type': 'application/json', 'X-Service-Auth-Token': token } };
const get = { headers: { 'X-Service-Auth-Token': token } };

export default function () {
  const sid = http.post(base, JSON.stringify({ to_number: '+447700900123' }), post).json('call_sid');
  let wait = 250;
  for (let n = 0; n < 40; n++) {
    const status = http.get(`${base}/${sid}/status`, get).json('status');
    if (status === 'success' || status === 'failure') break;
    sleep(wait / 1000);
    wait = Math.min(wait * 1.5, 2000);
  }
  http.get(`${base}/${sid}/status`, get);
}
