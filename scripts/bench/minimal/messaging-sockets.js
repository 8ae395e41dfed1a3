// Minimal messaging-sockets: the VU's access token, a session (streaming every other iteration), 10 sockets that each
// wait for their history batch, an 11th that is refused, the join, 2 messages, one socket closed, a message, the socket
// reopened with its cursor, a message, every socket closed. Only the frames it must read are parsed. Async style (one
// await per request), which k6 and the built-in engine both run.

import exec from 'k6/execution';
import http from 'k6/http';
import { setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import { profile, secret, shape } from './common.js';

export const options = { scenarios: { messaging: shape('10s') } };
const base = profile.hosts.messaging_url;
const ws = base.replace(/^http/, 'ws');
let token;

/** A socket that counts its history (batch events and live ones) and resolves waits on the events it is asked for. */
function open(url, parse) {
  const s = { ws: new WebSocket(url), seen: 0, batched: false, waits: [] };
  s.done = new Promise((resolve) => s.ws.addEventListener('close', resolve));
  s.ready = new Promise((resolve) => {
    s.ws.addEventListener('error', () => resolve(false));
    s.ws.addEventListener('message', (e) => {
      if (!parse && s.batched) return;
      const frame = JSON.parse(e.data);
      if (frame.type === 'EVENT_TYPE_EVENT_BATCH') {
        s.seen += frame.payload.events.length;
        s.batched = true;
        resolve(true);
      } else s.seen++;
      for (const w of s.waits) w(frame);
    });
  });
  return s;
}

const reply = (s, turn) =>
  new Promise((resolve) => {
    setTimeout(() => resolve(false), 5000);
    s.waits.push((f) => {
      const done =
        f.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED' ||
        f.type === 'EVENT_TYPE_AGENT_MESSAGE' ||
        (f.type === 'EVENT_TYPE_AGENT_MESSAGE_CHUNK' && f.payload.final);
      if (done && f.metadata?.custom?.turn === turn) resolve(true);
    });
  });

function send(s, type, payload, turn) {
  const answered = reply(s, turn);
  s.ws.send(JSON.stringify({ type, payload, metadata: { custom: { turn } } }));
  return answered;
}

export default async function () {
  token ??= (
    await http.asyncRequest('POST', `${base}/api/v1/access-token`, '{}', {
      headers: { 'X-Token': secret('messaging_connector_token'), 'X-Host': 'app.dialtone.test', 'Content-Type': 'application/json' },
    })
  ).json('access_token');
  const auth = { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } };
  const streaming = exec.scenario.iterationInTest % 2 === 0;
  const created = await http.asyncRequest('POST', `${base}/api/v1/sessions`, JSON.stringify({ streaming_enabled: streaming, platform: 'web' }), auth);
  const session = created.json('session_id');
  const url = `${ws}/ws?access_token=${token}&session_id=${session}`;
  const sockets = Array.from({ length: 10 }, (_, i) => open(url, i === 1 || i === 9));
  await Promise.all(sockets.map((s) => s.ready));
  const extra = open(url, false);
  await extra.ready;
  const [, asker] = sockets;
  await send(asker, 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {}, 'join');
  for (let n = 0; n < 2; n++) await send(asker, 'EVENT_TYPE_USER_MESSAGE', { text: 'What are your opening hours?', client_message_id: `m${n}` }, `m${n}`);
  const dropped = sockets[9];
  dropped.ws.close();
  await dropped.done;
  await send(asker, 'EVENT_TYPE_USER_MESSAGE', { text: 'And on Sundays?', client_message_id: 'm2' }, 'm2');
  const back = open(`${url}&cursor=seq:${dropped.seen}`, true);
  await back.ready;
  await send(back, 'EVENT_TYPE_USER_MESSAGE', { text: 'Thanks', client_message_id: 'm3' }, 'm3');
  for (const s of [...sockets.slice(0, 9), back]) s.ws.close();
  await Promise.all([...sockets.slice(0, 9), back].map((s) => s.done));
}
