// undici alone, in a process of its own, so scripts/bench-engine.ts can set the engine's CPU beside the HTTP library it
// is built on at the same rate and connections. argv[2]: JSON of { url, method, headers, body, connections,
// overallRate, duration, pacing }. pacing 'smooth': an arrival every 1/overallRate s, as a constant-arrival-rate
// executor starts iterations (k6's semantics, which the engine keeps); 'bursts': autocannon's overallRate, each
// connection sending its share of a second's requests back to back on responses, then waiting for the next second.
// Prints the counts as one JSON line on stdout, as scripts/bench/autocannon-rate.mjs does.
import { Client } from 'undici';
import { pace } from './pacing.mjs';

const o = JSON.parse(process.argv[2]);
const url = new URL(o.url);
const headers = Object.entries(o.headers).flat();
const connections = Array.from({ length: o.connections }, () => new Client(url.origin, { pipelining: 1 }));
let ok = 0;
let non2xx = 0;
let errors = 0;
let sent = 0;
/** Set at the end: a completion no longer chains another request into a closing client. */
let stopping = false;

/** One request on `c`; `then` runs once it ended. */
function send(c, then) {
  if (stopping) return;
  sent++;
  c.dispatch(
    { path: url.pathname + url.search, method: o.method, headers, body: o.body },
    {
      status: 0,
      onConnect() {},
      onHeaders(status) {
        this.status = status;
        return true;
      },
      onData() {
        return true;
      },
      onComplete() {
        if (this.status >= 200 && this.status < 300) ok++;
        else non2xx++;
        then();
      },
      onError() {
        errors++;
        then();
      },
    },
  );
}

console.log('started');
const timers = pace(connections, o.overallRate, o.pacing, send);
setTimeout(async () => {
  stopping = true;
  for (const t of timers) clearInterval(t);
  await Promise.all(connections.map((c) => c.close().catch(() => {})));
  console.log(JSON.stringify({ sent, completed: ok, non2xx, errors, seconds: o.duration }));
  process.exit(0);
}, o.duration * 1000);
