// The leanest HTTP/1.1 client this bench can write, in a process of its own: one prebuilt request buffer written to
// keep-alive `node:net` sockets, answers read by status line and Content-Length only, no objects per request. It is the
// floor under any client that does real work, so scripts/bench-engine.ts can say how much CPU pacing itself costs when
// no library is in the way. argv[2]: JSON of { url, method, headers, body, connections, overallRate, duration, pacing },
// as scripts/bench/undici-rate.mjs (pacing 'smooth': an arrival every 1/overallRate s, as k6's constant-arrival-rate
// starts iterations; 'bursts': autocannon's overallRate, each connection's share of a second back to back on answers).
// Prints the counts as one JSON line on stdout. Plain http: only, and an answer without Content-Length is an error.

import { connect } from 'node:net';
import { pace } from './pacing.mjs';

const o = JSON.parse(process.argv[2]);
const url = new URL(o.url);
if (url.protocol !== 'http:') throw new Error(`lean-rate speaks plain http only, not ${url.protocol}`);
const body = Buffer.from(o.body ?? '');
const head = [
  `${o.method} ${url.pathname}${url.search} HTTP/1.1`,
  `host: ${url.host}`,
  ...Object.entries(o.headers).map(([k, v]) => `${k}: ${v}`),
  `content-length: ${body.length}`,
  '',
  '',
].join('\r\n');
const request = Buffer.concat([Buffer.from(head), body]);
const HEADER_END = Buffer.from('\r\n\r\n');

let ok = 0;
let non2xx = 0;
let errors = 0;
let sent = 0;
let stopping = false;

/** One keep-alive connection: sends one request at a time, calls `then` when its answer has been read whole. */
function connection() {
  const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
  let pending = Buffer.alloc(0);
  let need = -1; // bytes of the current answer still to read once its head is parsed; -1 before that
  let status = 0;
  const c = { socket, onAnswer: () => {}, busy: false };
  socket.on('data', (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (need < 0) {
        const end = pending.indexOf(HEADER_END);
        if (end < 0) return;
        const text = pending.toString('latin1', 0, end);
        status = Number(text.slice(9, 12));
        const m = /\r\ncontent-length: *(\d+)/i.exec(text);
        if (!m) {
          errors++;
          socket.destroy();
          return;
        }
        need = Number(m[1]);
        pending = pending.subarray(end + 4);
      }
      if (pending.length < need) return;
      pending = pending.subarray(need);
      need = -1;
      if (status >= 200 && status < 300) ok++;
      else non2xx++;
      c.busy = false;
      c.onAnswer();
    }
  });
  socket.on('error', () => {
    errors++;
    c.busy = false;
  });
  return c;
}

function send(c, then) {
  if (stopping || c.busy) return;
  sent++;
  c.busy = true;
  c.onAnswer = then;
  c.socket.write(request);
}

const connections = Array.from({ length: o.connections }, connection);
console.log('started');
const timers = pace(connections, o.overallRate, o.pacing, send);
setTimeout(() => {
  stopping = true;
  for (const t of timers) clearInterval(t);
  for (const c of connections) c.socket.destroy();
  console.log(JSON.stringify({ sent, completed: ok, non2xx, errors, seconds: o.duration }));
  process.exit(0);
}, o.duration * 1000);
