import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentsClient } from '../clients/agents.js';
import { AgentsControl } from '../clients/agents-control.js';
import { ControlClient } from '../clients/control-client.js';
import { type Handshake, MessagingClient } from '../clients/messaging.js';
import { MessagingPaths } from '../contract/messaging/shapes.js';
import { VoicePaths } from '../contract/voice/shapes.js';
import { loadProfile } from '../profile/load.js';
import { CONTROL_HEADER } from '../reference-target/control-surface.js';
import { LISTENER_TIMEOUTS } from '../reference-target/limits.js';
import { type Route as FuzzRoute, listRoutes } from '../reference-target/route-table.js';
import { checkAfterwards } from './afterwards.js';
import { type FuzzKnowledge, makeRequest } from './http-cases.js';
import { rawExchange } from './raw-http.js';
import { REGRESSIONS, type RegressionContext } from './regressions.js';
import { FuzzRng } from './rng.js';
import { spawnTarget, type TargetProcess } from './target-process.js';
import { BAD_FRAMES, encodeFrame, type FrameSpec, hostileMessages, openRawSocket } from './ws-frames.js';

/** How much to fuzz: counts are targets, `maxSeconds` bounds the random phase whatever the counts. */
export interface FuzzOptions {
  readonly seed: number;
  readonly requests: number;
  readonly frames: number;
  readonly maxSeconds: number;
  /** Where the target's profile goes. */
  readonly dir: string;
  readonly log?: (line: string) => void;
}

/** The figures of a fuzz run and what went wrong, if anything. */
export interface FuzzReport {
  readonly seed: number;
  readonly routes: number;
  readonly requests: number;
  readonly frames: number;
  readonly socketCycles: number;
  readonly crashes: number;
  readonly slowestMs: number;
  readonly slowestWhat: string;
  readonly status5xx: number;
  readonly noAnswer: number;
  readonly rssBeforeMb: number;
  readonly rssAfterMb: number;
  readonly seconds: number;
  readonly regressions: { readonly name: string; readonly problem?: string }[];
  /** Every broken promise but answer time, one line each; empty when the target held. */
  readonly problems: string[];
  /** Answers slower than ANSWER_LIMIT_MS (kept apart: on a loaded machine they say as much about the machine). */
  readonly slow: string[];
}

/** The slowest answer any exchange may take. */
export const ANSWER_LIMIT_MS = 1000;
/** RSS may grow by this much over a run (the target keeps histories and records, so some growth is expected). */
export const RSS_GROWTH_LIMIT_MB = 300;

class Tally {
  requests = 0;
  frames = 0;
  socketCycles = 0;
  slowestMs = 0;
  slowestWhat = '';
  status5xx = 0;
  noAnswer = 0;
  readonly problems: string[] = [];
  readonly slow: string[] = [];
  readonly #seen = new Set<string>();
  /** Inputs in flight, so a crash can be traced to them. */
  readonly inFlight = new Set<string>();

  answer(ms: number, what: string): void {
    if (ms > this.slowestMs) {
      this.slowestMs = ms;
      this.slowestWhat = what;
    }
    if (ms > ANSWER_LIMIT_MS && this.slow.length < 50) this.slow.push(`slow answer (${ms.toFixed(0)} ms): ${what}`);
  }
  problem(line: string): void {
    const key = line.replace(/\d+ ms/, '');
    if (this.#seen.has(key) || this.problems.length >= 50) return;
    this.#seen.add(key);
    this.problems.push(line);
  }
}

function portOf(url: string | undefined): number {
  return url ? Number(new URL(url).port) : 0;
}

/** Valid credentials of every surface and valid path values, so mutated requests get past the first checks. */
async function learn(loaded: ReturnType<typeof loadProfile>, handshake: Handshake | undefined): Promise<FuzzKnowledge> {
  const s = loaded.secrets;
  const p = loaded.profile;
  const vals = (...v: (string | undefined)[]) => v.filter((x): x is string => !!x);
  const agents = new AgentsClient(loaded, []);
  const created = await agents.createAgent({ name: 'Fuzz', description: 'fuzz target' }).catch(() => undefined);
  const agentId = (created?.json as { agentId?: string } | undefined)?.agentId;
  if (agentId) await new AgentsControl(new ControlClient(loaded)).defineConfig(agentId, 'site', { type: 'object' }).catch(() => {});
  return {
    credentials: {
      'X-Api-Key': vals(s.chat_api_key, s.conversations_api_key, s.external_events_key, s.agents_api_key, s.outbound_token),
      'X-TOKEN': vals(s.chat_connector_token, s.messaging_connector_token),
      Authorization: vals(s.voice_auth_token, handshake?.accessToken, s.outbound_token).map((t) => `Bearer ${t}`),
    },
    params: {
      version: ['v1', 'v3', 'v2'],
      account: vals(p.account_id, p.account_id_alt),
      project: vals(p.project_id, p.project_id_alt),
      op: ['create', 'respond', 'close'],
      agentId: vals(agentId),
      config: ['site'],
      branchId: ['main'],
    },
  };
}

/** One socket's life: open, a few bad or hostile frames, then an abrupt end or a close whose answer is timed. */
async function socketCycle(rng: FuzzRng, tally: Tally, port: number, path: string, messages: ((rng: FuzzRng) => string)[]): Promise<void> {
  const raw = await openRawSocket(port, path);
  tally.socketCycles++;
  if (!raw.ok) {
    if (raw.status !== 429) tally.problem(`a socket upgrade on ${path.split('?')[0]} answered ${raw.status ?? 'nothing'}`);
    return;
  }
  const s = raw.socket;
  let closed = false;
  s.on('data', () => {});
  s.on('error', () => {});
  const gone = new Promise<void>((r) =>
    s.once('close', () => {
      closed = true;
      r();
    }),
  );
  const kinds: string[] = [];
  const steps = 1 + rng.int(4);
  for (let i = 0; i < steps && !closed; i++) {
    let frames: FrameSpec[];
    if (rng.chance(0.6)) {
      const [f, kind] = rng.pick(BAD_FRAMES)(rng);
      frames = f;
      kinds.push(kind);
    } else {
      frames = [{ opcode: 1, payload: Buffer.from(rng.pick(messages)(rng)) }];
      kinds.push('hostile-message');
    }
    const what = `${path.split('?')[0]} ${kinds.join(',')}`;
    tally.inFlight.add(what);
    for (const f of frames) {
      if (closed) break;
      s.write(encodeFrame(f));
      tally.frames++;
    }
    await new Promise((r) => setTimeout(r, rng.int(5)));
    tally.inFlight.delete(what);
  }
  const end = rng.int(10);
  if (end < 3 || closed) return void s.destroy();
  if (end < 4) {
    s.write(encodeFrame({ opcode: 1, payload: Buffer.from('{"type":') }).subarray(0, 5));
    return void s.destroy();
  }
  const t0 = performance.now();
  s.write(encodeFrame({ opcode: 8, payload: Buffer.from([0x03, 0xe8]) }));
  tally.frames++;
  const timer = new Promise<boolean>((r) => setTimeout(() => r(false), 3000));
  const answered = await Promise.race([gone.then(() => true), timer]);
  tally.answer(performance.now() - t0, `closing a socket on ${path.split('?')[0]} after ${kinds.join(',')}`);
  if (!answered) tally.problem(`a socket on ${path.split('?')[0]} was not closed 3 s after a close frame (${kinds.join(',')})`);
  s.destroy();
}

/** Requests that never finish: the listener timeouts must close them. Resolves to the ones left open. */
function stalledRequests(port: number): Promise<string[]> {
  const cases: [string, string][] = [
    ['a body that never completes', 'POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":'],
    ['headers that never complete', 'GET /v1/x HTTP/1.1\r\nHost: x\r\nX-Slow: '],
  ];
  const limit = LISTENER_TIMEOUTS.requestMs + LISTENER_TIMEOUTS.checkIntervalMs * 3 + 2000;
  return Promise.all(
    cases.map(
      ([what, bytes]) =>
        new Promise<string | undefined>((resolve) => {
          import('node:net').then(({ connect }) => {
            const s = connect({ host: '127.0.0.1', port });
            s.on('error', () => {});
            s.on('data', () => {});
            const timer = setTimeout(() => {
              s.destroy();
              resolve(`${what} was still open after ${limit} ms`);
            }, limit);
            s.on('close', () => {
              clearTimeout(timer);
              resolve(undefined);
            });
            s.write(bytes);
          });
        }),
    ),
  ).then((r) => r.filter((x): x is string => x !== undefined));
}

async function runRegressions(ctx: RegressionContext, tally: Tally, pass: string): Promise<FuzzReport['regressions']> {
  const out: { name: string; problem?: string }[] = [];
  for (const r of REGRESSIONS) {
    const problem = await r.run(ctx).catch((e: Error) => (ctx.alive() ? `threw: ${e.message}` : 'the target died'));
    out.push(problem ? { name: r.name, problem } : { name: r.name });
    if (problem) tally.problem(`regression (${pass}) "${r.name}": ${problem}`);
    if (!ctx.alive()) break;
  }
  return out;
}

/**
 * Fuzzes a reference target in its own process: the regression cases, then seeded random malformed HTTP requests over
 * every route and malformed frames over both sockets (with abrupt open/close cycles) until the counts are reached or
 * the time is up, then the regression cases again and a normal chat conversation, messaging session and voice call.
 *
 * @example
 * const report = await runFuzz({ seed: 1, requests: 20_000, frames: 5_000, maxSeconds: 600, dir: '.dialtone/fuzz' });
 * if (report.problems.length) process.exitCode = 1;
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  mkdirSync(options.dir, { recursive: true });
  const target: TargetProcess = await spawnTarget(join(options.dir, 'fuzz-target.json'));
  const tally = new Tally();
  const t0 = performance.now();
  try {
    const loaded = loadProfile(target.profilePath, {});
    const { hosts } = loaded.profile;
    const ports: Record<string, number> = { control: portOf(loaded.profile.control?.url) };
    for (const [k, v] of Object.entries(hosts)) ports[k] = portOf(v);
    const ctx: RegressionContext = { loaded, pid: target.pid, alive: target.alive, port: (h) => ports[h] ?? 0 };
    const routes: FuzzRoute[] = await listRoutes();
    log(`fuzz: seed ${options.seed}, ${routes.length} routes, target pid ${target.pid}`);

    const before = await runRegressions(ctx, tally, 'before');
    const rssBeforeMb = target.alive() ? target.rssMb() : Number.NaN;
    const pool: Handshake[] = [];
    let knowledge: FuzzKnowledge = { credentials: {}, params: {} };
    try {
      const messaging = new MessagingClient(loaded, []);
      for (let i = 0; i < 12 && target.alive(); i++) pool.push(await messaging.handshake());
      knowledge = await learn(loaded, pool[0]);
    } catch (e) {
      if (target.alive()) throw e;
    }
    const stalled = target.alive() ? stalledRequests(ports.base_url ?? 0) : Promise.resolve([]);

    const deadline = performance.now() + options.maxSeconds * 1000;
    const running = () => target.alive() && performance.now() < deadline;
    const httpWorker = async (w: number) => {
      const r = new FuzzRng(options.seed * 1000 + w);
      while (running() && tally.requests < options.requests) {
        const route = r.pick(routes);
        const port = ports[route.host] ?? 0;
        const req = makeRequest(r, route, knowledge, `127.0.0.1:${port}`);
        const what = `${req.route.method} ${req.route.url} [${req.kind}]`;
        tally.inFlight.add(what);
        const a = await rawExchange(port, req.bytes, 5000);
        tally.inFlight.delete(what);
        tally.requests++;
        if (a.timedOut) tally.problem(`no answer within 5 s: ${what}`);
        else tally.answer(a.ms, what);
        if (a.status === null) tally.noAnswer++;
        else if (a.status >= 500) {
          tally.status5xx++;
          tally.problem(`${a.status}: ${what}`);
        }
      }
    };
    const voiceMessages = hostileMessages('voice', loaded.secrets.voice_auth_token ?? '');
    const messagingMessages = hostileMessages('messaging', '');
    const socketWorker = async (w: number) => {
      const r = new FuzzRng(options.seed * 1000 + 100 + w);
      let n = 0;
      while (running() && tally.frames < options.frames && pool.length) {
        const h = pool[n++ % pool.length] as Handshake;
        if (r.chance(0.5)) await socketCycle(r, tally, ports.webrtc_url ?? 0, VoicePaths.signal, voiceMessages);
        else
          await socketCycle(
            r,
            tally,
            ports.messaging_url ?? 0,
            `${MessagingPaths.ws}?access_token=${encodeURIComponent(h.accessToken)}&session_id=${encodeURIComponent(h.sessionId)}`,
            messagingMessages,
          );
      }
    };
    const probe = async () => {
      const token = loaded.secrets.control_token ?? '';
      const bytes = Buffer.from(`GET /health HTTP/1.1\r\nHost: x\r\n${CONTROL_HEADER}: ${token}\r\nConnection: close\r\n\r\n`);
      while (running() && (tally.requests < options.requests || tally.frames < options.frames)) {
        const a = await rawExchange(ports.control ?? 0, bytes, 5000);
        if (target.alive()) tally.answer(a.ms, 'the health probe during the fuzz');
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await Promise.all([...[0, 1, 2, 3, 4, 5].map(httpWorker), ...[0, 1, 2].map(socketWorker), probe()]);
    log(`fuzz: random phase done: ${tally.requests} requests, ${tally.frames} frames in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    if (!target.alive()) {
      tally.problem(`the target died (${target.exit()}); inputs in flight: ${[...tally.inFlight].join(' | ')}; output: ${target.output().slice(-800)}`);
    } else {
      for (const s of await stalled) tally.problem(s);
    }
    const after = target.alive() ? await runRegressions(ctx, tally, 'after') : [];
    if (target.alive()) for (const p of await checkAfterwards(loaded)) tally.problem(`afterwards: ${p}`);
    if (!target.alive() && !tally.problems.some((p) => p.startsWith('the target died'))) tally.problem(`the target died (${target.exit()})`);
    const rssAfterMb = target.alive() ? target.rssMb() : Number.NaN;
    if (rssAfterMb - rssBeforeMb > RSS_GROWTH_LIMIT_MB) tally.problem(`RSS grew from ${rssBeforeMb.toFixed(0)} MB to ${rssAfterMb.toFixed(0)} MB`);
    if (tally.requests < options.requests) log(`fuzz: time budget reached at ${tally.requests} of ${options.requests} requests`);
    if (tally.frames < options.frames) log(`fuzz: time budget reached at ${tally.frames} of ${options.frames} frames`);
    return {
      seed: options.seed,
      routes: routes.length,
      requests: tally.requests,
      frames: tally.frames,
      socketCycles: tally.socketCycles,
      crashes: target.alive() ? 0 : 1,
      slowestMs: tally.slowestMs,
      slowestWhat: tally.slowestWhat,
      status5xx: tally.status5xx,
      noAnswer: tally.noAnswer,
      rssBeforeMb,
      rssAfterMb,
      seconds: (performance.now() - t0) / 1000,
      regressions: [...before, ...after],
      problems: tally.problems,
      slow: tally.slow,
    };
  } finally {
    await target.stop();
  }
}

/** The totals as the lines `npm run fuzz` prints. */
export function formatReport(r: FuzzReport): string {
  return [
    `fuzz seed ${r.seed}: ${r.routes} routes, ${r.requests} requests, ${r.frames} frames over ${r.socketCycles} socket cycles in ${r.seconds.toFixed(0)} s`,
    `crashes ${r.crashes} · slowest answer ${r.slowestMs.toFixed(0)} ms (${r.slowestWhat.slice(0, 160)}) · 5xx ${r.status5xx} · closed without answer ` +
      `${r.noAnswer}`,
    `RSS before ${r.rssBeforeMb.toFixed(0)} MB, after ${r.rssAfterMb.toFixed(0)} MB · regression cases ` +
      `${r.regressions.filter((x) => !x.problem).length}/${r.regressions.length} held`,
    ...(r.problems.length || r.slow.length ? ['problems:', ...[...r.problems, ...r.slow].map((p) => `  - ${p}`)] : ['no problems: the target held']),
  ].join('\n');
}
