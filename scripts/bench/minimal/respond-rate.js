// Minimal respond-rate: BENCH_RATE chat/respond requests a second on one conversation that setup() creates; each
// iteration is one request. scripts/bench-engine.ts drives the same endpoint at the same rate with autocannon and
// compares the CPU each tool spends per request. Async style, which k6 and the built-in engine both run.
import http from 'k6/http';
import { profile, secret, shape } from './common.js';

export const options = { scenarios: { respond: shape('5s') } };
const base = `${profile.hosts.base_url}/${profile.api_version}/${profile.account_id}/${profile.project_id}/chat`;
const params = { headers: { 'Content-Type': 'application/json', 'X-API-KEY': secret('chat_api_key'), 'X-TOKEN': secret('chat_connector_token') } };
let body;

export async function setup() {
  const created = await http.asyncRequest('POST', `${base}/create`, '{}', params);
  return { id: created.json('conversation_id') };
}

export default async function (data) {
  body ??= JSON.stringify({ conversation_id: data.id, message: 'What are your opening hours?' });
  await http.asyncRequest('POST', `${base}/respond`, body, params);
}
