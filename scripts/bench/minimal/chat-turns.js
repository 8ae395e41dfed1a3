// Minimal chat-turns: create, 4 turns, goodbye, close; the least a hand-written k6 script does for the same requests.
// Async style (one await per request), which k6 and the built-in engine both run.
import http from 'k6/http';
import { profile, secret, shape } from './common.js';

export const options = { scenarios: { chat: shape('5s') } };
const base = `${profile.hosts.base_url}/${profile.api_version}/${profile.account_id}/${profile.project_id}/chat`;
const params = { headers: { 'Content-Type': 'application/json', 'X-API-KEY': secret('chat_api_key'), 'X-TOKEN': secret('chat_connector_token') } };

export default async function () {
  const created = await http.asyncRequest('POST', `${base}/create`, JSON.stringify({ channel: 'api', initial_message: 'Hello' }), params);
  const id = created.json('conversation_id');
  for (let i = 0; i < 4; i++) {
    await http.asyncRequest('POST', `${base}/respond`, JSON.stringify({ conversation_id: id, message: 'What are your opening hours?' }), params);
  }
  await http.asyncRequest('POST', `${base}/respond`, JSON.stringify({ conversation_id: id, message: profile.chat_script.goodbye_message }), params);
  await http.asyncRequest('PUT', `${base}/close`, JSON.stringify({ conversation_id: id }), params);
}
