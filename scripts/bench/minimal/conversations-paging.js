// Minimal conversations-paging: walk the records window by cursor to the end, page sizes 1000, 500 and 250 in turn.
// Async style (one await per request), which k6 and the built-in engine both run.

import exec from 'k6/execution';
import http from 'k6/http';
import { profile, secret, shape } from './common.js';

export const options = { scenarios: { paging: shape('10s') } };
const span = JSON.parse(__ENV.BENCH_WINDOW);
const base = `${profile.hosts.base_url}/v3/${profile.account_id}/${profile.project_id}/conversations`;
const params = { headers: { 'x-api-key': secret('conversations_api_key') } };
const sizes = [1000, 500, 250];

export default async function () {
  const limit = sizes[exec.scenario.iterationInTest % sizes.length];
  const query = `start_time=${encodeURIComponent(span.start_time)}&end_time=${encodeURIComponent(span.end_time)}&client_env=live&limit=${limit}`;
  let cursor;
  for (let n = 0; n < 400; n++) {
    const res = await http.asyncRequest('GET', `${base}?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, null, params);
    cursor = res.json('cursor');
    if (!cursor) break;
  }
}
