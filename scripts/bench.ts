// npm run bench: the figures of the foundation, measured side by side in one run.
//
//  1. chat-turns on the engine (DIALTONE_ENGINE, else the user's k6 when installed, else the built-in engine) against the
//     reference target: turns/s and p95 turn latency.
//  2. each scenario against a minimal hand-written k6 script doing the same protocol work (scripts/bench-load.ts).
//  3. chat/respond throughput of the reference target under autocannon (an independent loopback
//     load tool), as a ratio to a bare node:http server answering a JSON body of the same size.
//     Each server runs in its own child process; runs alternate (bare, target, bare, target) and
//     the medians are compared, so drift on the machine hits both alike.
//  4. the built-in engine as fast as the machine allows (scripts/bench-engine.ts): chat-turns at a rate on it, and its
//     CPU per chat/respond request against autocannon's at the same rate; written to reports/bench/engine.md too.
//  5. the classic synchronous style on the built-in engine beside the async style (scripts/bench-sync-vus.ts): memory
//     per VU at 1,000 VUs of `http.get` + `sleep(1)`, and what the rewrite of blocking calls costs at start.
//  6. the gate across a network (scripts/bench-gate.ts): `dialtone conformance` against the reference target behind a
//     delay proxy on every host at 0, 100 and 300 ms of added round trip: wall time and pass/observed/skip/fail counts.
//
//  7. voice calls per engine core (scripts/bench-voice-calls.ts): voice-calls (werift callers in the engine) at rising
//     concurrency and voice-browser once, against one reference target: SLOs held, engine CPU per call, calls per core.
//
// Two comparisons run alone, each by itself:
//  --before DIR: chat-turns' engine CPU per request against an earlier checkout's (scripts/bench-before.ts).
//  --outputs: chat-turns with each network output on (Prometheus remote write, InfluxDB, OpenTelemetry, each to a real
//     store) against none (scripts/bench-outputs.ts).
//
// --full adds: wall time of `npm install && npm start` in a fresh clone with a cold Go build cache
// (so the build of the Go tools the tests use is included), and of `npm test` in that clone. It takes several minutes.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { request } from '../src/clients/exchange.js';
import { beforeTable, benchBefore } from './bench-before.js';
import { benchEngine, engineTable, writeEngineReport } from './bench-engine.js';
import { benchGate, gateTable } from './bench-gate.js';
import { benchLoad, ratioTable } from './bench-load.js';
import { benchOutputs, outputsTable } from './bench-outputs.js';
import { benchSyncVus, syncTable } from './bench-sync-vus.js';
import { benchVoiceCalls, voiceTable } from './bench-voice-calls.js';

const ROOT = new URL('..', import.meta.url).pathname;
const full = process.argv.includes('--full');

// --outputs: only chat-turns with each network output on against none (scripts/bench-outputs.ts).
if (process.argv.includes('--outputs')) {
  const value = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? (process.argv[i + 1] ?? '') : undefined;
  };
  const count = (name: string) => {
    const v = value(name);
    if (v !== undefined && !(Number(v) > 0)) {
      console.error(`bench: ${name} ${v}: not a positive number`);
      process.exit(2);
    }
    return v === undefined ? undefined : Number(v);
  };
  const asked = {
    rate: count('--rate'),
    seconds: count('--seconds'),
    rounds: count('--rounds'),
    only: value('--only')?.split(','),
    storesEqual: process.argv.includes('--store-equal'),
  };
  try {
    console.log(outputsTable(await benchOutputs(asked)));
  } catch (e) {
    console.error(`bench: ${(e as Error).message}`);
    process.exit(2);
  }
  process.exit(0);
}

// --before DIR: only the side-by-side comparison of chat-turns with an earlier checkout (scripts/bench-before.ts).
const beforeAt = process.argv.indexOf('--before');
if (beforeAt > 0) {
  const dir = process.argv[beforeAt + 1];
  if (!dir) {
    console.error('bench: --before needs the folder of an earlier checkout, with its node_modules and dist');
    process.exit(2);
  }
  const flag = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const r = await benchBefore(dir, { rate: flag('--rate'), seconds: flag('--seconds'), rounds: flag('--rounds') });
  console.log(beforeTable(r, dir));
  process.exit(0);
}
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

type Child = { url: string; stop: () => void; output: string };

/** Starts a child process and waits for a line that says it is ready. */
function startChild(args: string[], ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`child did not start: ${output}`)), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const m = ready.exec(output);
      if (m) {
        clearTimeout(t);
        resolve({ url: m[1] ?? '', output, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ ...opts, connections: CONNECTIONS, duration: SECONDS }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function respondRatio() {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-bench-'));
  const profilePath = join(work, 'ref.json');
  const target = await startChild(['bin/dialtone.mjs', 'target', '--profile-out', profilePath], /base_url=(\S+)/);
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const env = Object.fromEntries(
    readFileSync(join(work, 'ref.env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.split('=')[0], l.split('=').slice(1).join('=')]),
  );
  const headers = {
    'Content-Type': 'application/json',
    'X-API-KEY': env[profile.credentials.chat_api_key.env],
    'X-TOKEN': env[profile.credentials.chat_connector_token.env],
  };
  const base = `${target.url}/${profile.api_version}/${profile.account_id}/${profile.project_id}/chat`;
  const created = await request<{ conversation_id: string }>({ method: 'POST', url: `${base}/create`, headers, body: {} });
  const body = JSON.stringify({ conversation_id: created.json?.conversation_id, message: 'What are your opening hours?' });
  const sample = await request({ method: 'POST', url: `${base}/respond`, headers, body });
  const size = Buffer.byteLength(sample.text);

  // The bare server answers a fixed JSON body of the same size after reading the request.
  const bareScript = join(work, 'bare.mjs');
  writeFileSync(
    bareScript,
    `import http from 'node:http';
const body = JSON.stringify({ pad: 'x'.repeat(${Math.max(0, size - 10)}) });
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }); });
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => console.log('bare=http://127.0.0.1:' + server.address().port));`,
  );
  const bare = await startChild([bareScript], /bare=(\S+)/);
  const rps = { bare: [] as number[], target: [] as number[] };
  const p99 = { bare: [] as number[], target: [] as number[] };
  for (let round = 0; round < 2; round++) {
    for (const [name, url] of [
      ['bare', `${bare.url}/respond`],
      ['target', `${base}/respond`],
    ] as const) {
      const r = await cannon({ url, method: 'POST', headers, body });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rps[name].push(r.requests.average);
      p99[name].push(r.latency.p99);
    }
  }
  target.stop();
  bare.stop();
  return {
    response_bytes: size,
    connections: CONNECTIONS,
    seconds_per_run: SECONDS,
    bare_rps: median(rps.bare),
    target_rps: median(rps.target),
    ratio: median(rps.target) / median(rps.bare),
    bare_p99_ms: median(p99.bare),
    target_p99_ms: median(p99.target),
  };
}

/** chat-turns at a fixed arrival rate; two rates show where the target stands, not just the rate asked for. */
function chatTurns(rate: number) {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-bench-load-'));
  const r = spawnSync(process.execPath, ['bin/dialtone.mjs', 'load', 'chat-turns', '--rate', String(rate), '--duration', '30s', '--report-dir', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
  });
  const result = JSON.parse(readFileSync(join(dir, 'load', 'chat-turns', 'result.json'), 'utf8'));
  return { exit_code: r.status, engine: result.engine, arrival_rate_per_s: rate, ...result.figures };
}

function timed(cmd: string, cwd: string, env: Record<string, string> = {}) {
  const t0 = Date.now();
  const r = spawnSync('bash', ['-c', cmd], { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  return { seconds: (Date.now() - t0) / 1000, exit: r.status };
}

function freshClone() {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-clone-'));
  spawnSync('git', ['clone', '-q', ROOT, dir]);
  // A cold Go build cache so the Go tools' build is part of the measurement (modules stay cached).
  const cold = { GOCACHE: mkdtempSync(join(tmpdir(), 'gocache-')), CI: 'true' };
  const start = timed('npm install && npm start', dir, cold);
  const test = timed('npm test', dir);
  return { clone: dir, npm_start_cold_seconds: start.seconds, npm_start_exit: start.exit, npm_test_seconds: test.seconds, npm_test_exit: test.exit };
}

const results: Record<string, unknown> = { machine: { cores: (await import('node:os')).cpus().length, node: process.version }, at: new Date().toISOString() };
console.log('bench: chat/respond, reference target vs bare node:http (autocannon)…');
results.respond = await respondRatio();
console.log(results.respond);
results.chat_turns = [100, 300].map((rate) => {
  console.log(`bench: chat-turns at ${rate} conversations/s (${rate * 5} turns/s asked) for 30 s…`);
  const r = chatTurns(rate);
  console.log(r);
  return r;
});
console.log('bench: each scenario against a minimal hand-written k6 script, at saturation, side by side…');
results.load_ratios = await benchLoad();
console.log(ratioTable(results.load_ratios as Awaited<ReturnType<typeof benchLoad>>));
console.log('bench: the built-in engine, chat-turns at a rate and CPU per request against autocannon, side by side…');
const engineBench = await benchEngine();
results.engine = engineBench;
console.log(engineTable(engineBench));
console.log(`written: ${writeEngineReport(engineBench)}`);
console.log('bench: the synchronous style beside the async style on the built-in engine, memory per VU at 1,000 VUs…');
const sync = await benchSyncVus();
results.sync_vus = sync;
console.log(syncTable(sync));
console.log('bench: the gate behind 0, 100 and 300 ms of added round trip…');
const gate = await benchGate();
results.gate_rtt = gate.map(({ cases, ...figures }) => figures);
console.log(gateTable(gate));
console.log('bench: voice calls per engine core, voice-calls at rising concurrency beside voice-browser…');
const voice = await benchVoiceCalls();
results.voice_calls = voice;
console.log(voiceTable(voice));
if (full) {
  console.log('bench: fresh clone, npm install && npm start (cold Go build cache), then npm test…');
  results.fresh_clone = freshClone();
  console.log(results.fresh_clone);
}
mkdirSync(join(ROOT, 'reports', 'bench'), { recursive: true });
writeFileSync(join(ROOT, 'reports', 'bench', 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`written: reports/bench/bench.json`);
