// Minimal outbound-polling: trigger a call, poll its status with the same backoff until it is terminal, poll once more.
// Async style (one await per request, waits on k6/timers), which k6 and the built-in engine both run.

import http from 'k6/http';
import { setTimeout } from 'k6/timers';
import { profile, secret, shape } from './common.js';

export const options = { scenarios: { outbound: shape('8s') } };
const base = `${profile.hosts.base_url}/v1/outbound-calling`;
const token = secret('outbound_token');
const post = { headers: { 'Content-Type': 'application/json', 'X-Service-Auth-Token': token } };
const get = { headers: { 'X-Service-Auth-Token': token } };

export default async function () {
  const sid = (await http.asyncRequest('POST', base, JSON.stringify({ to_number: '+447700900123' }), post)).json('call_sid');
  let wait = 250;
  for (let n = 0; n < 40; n++) {
    const status = (await http.asyncRequest('GET', `${base}/${sid}/status`, null, get)).json('status');
    if (status === 'success' || status === 'failure') break;
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 1.5, 2000);
  }
  await http.asyncRequest('GET', `${base}/${sid}/status`, null, get);
}
