// How many messaging sockets one k6 process holds at once with no event lost (scripts/bench-sockets.ts runs it).
// SESSIONS sessions at the 10-socket cap, SESSIONS_PER_VU of them per VU (k6/websockets is event-driven, so one VU
// holds many sockets). Every socket opens and gets its history batch; once all are open, each session's first socket
// sends MESSAGES user messages HOLD_S / MESSAGES seconds apart while all sockets stay open; then every socket's events
// are compared by id with those of its session's second socket, which never sends. Access tokens come from setup, one
// per 100 sessions, inside the documented limits (1,000 tokens a minute per connector, 1,000 sessions a minute per token).
// Async style (one await per request, setup() too), which k6 and the built-in engine both run.

import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';

const profile = JSON.parse(open(__ENV.BENCH_PROFILE));
const base = profile.hosts.messaging_url;
const SESSIONS = Number(__ENV.SESSIONS);
const PER_VU = Number(__ENV.SESSIONS_PER_VU ?? 10);
const HOLD_MS = Number(__ENV.HOLD_S ?? 20) * 1000;
const MESSAGES = Number(__ENV.MESSAGES ?? 3);
const CAP = 10;
const OPEN_WAIT_MS = 60_000;

export const options = {
  scenarios: { hold: { executor: 'per-vu-iterations', vus: Math.ceil(SESSIONS / PER_VU), iterations: 1, maxDuration: `${HOLD_MS / 1000 + 180}s` } },
  setupTimeout: '120s',
};

const opened = new Counter('sockets_opened');
const failed = new Counter('sockets_failed');
const lost = new Counter('events_lost');
const received = new Counter('events_received');
const sent = new Counter('user_messages');
const silent = new Counter('sessions_silent');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function setup() {
  const tokens = [];
  for (let i = 0; i < Math.ceil(SESSIONS / 100); i++) {
    const res = await http.asyncRequest('POST', `${base}/api/v1/access-token`, '{}', {
      headers: { 'X-Token': __ENV[profile.credentials.messaging_connector_token.env], 'X-Host': 'app.dialtone.test', 'Content-Type': 'application/json' },
    });
    tokens.push(res.json('access_token'));
  }
  // Every VU opens its sockets first; the messages start once all should be open.
  return { tokens, start: Date.now() + OPEN_WAIT_MS };
}

function socket(url) {
  const s = { ws: new WebSocket(url), ids: new Set(), open: false };
  s.ready = new Promise((resolve) => {
    setTimeout(() => resolve(false), OPEN_WAIT_MS - 5000);
    s.ws.addEventListener('error', () => resolve(false));
    s.ws.addEventListener('message', (e) => {
      const f = JSON.parse(e.data);
      if (f.type === 'EVENT_TYPE_EVENT_BATCH') {
        s.open = true;
        for (const h of f.payload.events) s.ids.add(h.id);
        resolve(true);
      } else s.ids.add(f.id);
    });
  });
  s.closed = new Promise((resolve) => s.ws.addEventListener('close', resolve));
  return s;
}

async function session(token, n, start) {
  const res = await http.asyncRequest('POST', `${base}/api/v1/sessions`, JSON.stringify({ streaming_enabled: false, platform: 'web' }), {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  });
  const id = res.json('session_id');
  const url = `${base.replace(/^http/, 'ws')}/ws?access_token=${token}&session_id=${id}`;
  const sockets = Array.from({ length: CAP }, () => socket(url));
  const ok = await Promise.all(sockets.map((s) => s.ready));
  opened.add(ok.filter(Boolean).length);
  failed.add(ok.filter((o) => !o).length);
  // Spread the sessions' messages over each interval, so the target is not hit by all at once.
  const every = HOLD_MS / MESSAGES;
  await sleep(Math.max(0, start - Date.now()) + Math.random() * every);
  // The agent answers only once it has joined; the join and every answer are broadcast to all ten sockets.
  if (sockets[0].open) sockets[0].ws.send(JSON.stringify({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', payload: {} }));
  await sleep(500);
  for (let m = 0; m < MESSAGES; m++) {
    if (sockets[0].open) {
      sockets[0].ws.send(JSON.stringify({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: `Message ${m}`, client_message_id: `${n}-${m}` } }));
      sent.add(1);
    }
    await sleep(every);
  }
  await sleep(3000); // the last reply on its way
  const keeper = sockets[1].ids;
  // A session whose silent socket saw fewer events than the join and one answer per message proves nothing: counted apart.
  if (keeper.size < 1 + MESSAGES) silent.add(1);
  for (const s of sockets) {
    received.add(s.ids.size);
    let missing = 0;
    for (const e of keeper) if (!s.ids.has(e)) missing++;
    lost.add(missing);
  }
  for (const s of sockets) if (s.open) s.ws.close();
  await Promise.all(sockets.filter((s) => s.open).map((s) => s.closed));
}

export default async function (data) {
  const first = (exec.vu.idInTest - 1) * PER_VU;
  const mine = Array.from({ length: Math.min(PER_VU, SESSIONS - first) }, (_, i) => first + i);
  await Promise.all(mine.map((n) => session(data.tokens[Math.floor(n / 100)], n, data.start)));
}
