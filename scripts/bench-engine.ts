// The built-in engine as fast as the machine allows, side by side in one run against the reference target, which runs
// in a child process of its own (a fresh one per part). Run by `npm run bench`, or:
//   node --import tsx scripts/bench-engine.ts [--seconds 20] [--rate 1000] [--respond-rate 2000] [--rounds 2] [--connections 64]
//
//  a. chat-turns at --rate conversations/s for --seconds on the built-in engine (`dialtone load chat-turns --engine
//     builtin`): the rate asked and delivered, requests/s, the dropped share and the engine's CPU, from result.json.
//  b. CPU time per request, engine vs autocannon: chat/respond at --respond-rate requests/s for --seconds, once by the
//     engine (scripts/bench/minimal/respond-rate.js) and once by autocannon (scripts/bench/autocannon-rate.mjs), each in
//     a process of its own with the same number of connections (VUs), alternating (engine, autocannon, engine, …).
//     Beside them undici alone (scripts/bench/undici-rate.mjs) paced two ways, on schedule as the engine (k6's
//     constant-arrival-rate) and in autocannon's once-a-second bursts, so the table says how much of the ratio is the
//     pacing, the library and k6's semantics.
//     A process's CPU is read exactly once it has exited and been reaped (its whole tree's time lands in this process's
//     cutime and cstime, /proc/self/stat), start-up included; its steady CPU is the median of its per-second samples
//     (GeneratorWatch). The medians over the rounds are compared per 1,000 requests completed (2xx).
//
// Every run is bounded in time; all traffic goes to 127.0.0.1. The tables are printed and written to reports/bench/engine.md.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from '../src/clients/exchange.js';
import { type K6Summary, stat } from '../src/core/summary.js';
import type { Delivery } from '../src/load/delivery.js';
import { builtinEngine } from '../src/load/engine.js';
import { engineThreadsEnv } from '../src/load/engine-threads.js';
import { GeneratorWatch } from '../src/load/generator-watch.js';
import type { LoadResult } from '../src/load/page.js';
import { TICKS_PER_SECOND } from '../src/load/proc.js';
import type { Profile } from '../src/profile/schema.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface EngineBenchOptions {
  /** Length of every run (default 20). */
  readonly seconds?: number;
  /** chat-turns conversations per second asked (default 1000). */
  readonly rate?: number;
  /** chat/respond requests per second asked of the engine and of autocannon (default 2000). */
  readonly respondRate?: number;
  /** Rounds of (engine, autocannon) (default 2). */
  readonly rounds?: number;
  /** The engine's VUs and autocannon's connections (default 64). */
  readonly connections?: number;
}

/** One process run: its exit, output and CPU. */
interface Measured {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** CPU seconds of the process and everything it started, start-up included (exact, from this process's cutime). */
  readonly cpuSeconds: number;
  /** The median of its per-second CPU samples, in cores: the steady cost, start-up and wind-down left out. */
  readonly steadyCores: number;
  readonly watched: ReturnType<GeneratorWatch['stop']>;
}

export interface ChatTurnsRow {
  readonly exit_code: number | null;
  readonly asked_conversations_per_s: number;
  readonly delivered_conversations_per_s: number;
  readonly requests_per_s: number;
  readonly turns_per_s: number;
  readonly dropped_share: number;
  readonly short_by: string[];
  readonly engine_cpu_avg_cores: number;
  readonly engine_cpu_peak_cores: number;
  readonly engine_cpu_seconds: number;
  readonly engine_cpu_ms_per_request: number;
  readonly machine_busy: number;
  /** How late the arrivals started against their schedule, p99 (the built-in engine's iteration_start_lag), ms. */
  readonly start_lag_p99_ms: number | null;
  /** Where the engine's CPU was read: result.json's delivery, or this script's watch of the whole `dialtone load`. */
  readonly cpu_from: 'result.json' | 'watch of dialtone load';
}

export interface RespondRun {
  readonly tool: 'engine' | ClientTool;
  readonly exit_code: number | null;
  readonly completed: number;
  readonly failed: number;
  readonly dropped: number;
  readonly cpu_seconds: number;
  readonly cpu_seconds_per_1k: number;
  readonly steady_cores: number;
  readonly steady_cpu_seconds_per_1k: number;
}

export interface EngineBench {
  readonly machine: { readonly cores: number; readonly node: string };
  readonly seconds: number;
  readonly chat_turns: ChatTurnsRow;
  readonly respond: {
    readonly rate: number;
    readonly connections: number;
    readonly runs: RespondRun[];
    readonly engine: { completed: number; cpu_seconds_per_1k: number; steady_cpu_seconds_per_1k: number };
    readonly autocannon: { completed: number; cpu_seconds_per_1k: number; steady_cpu_seconds_per_1k: number };
    /** engine / autocannon, CPU seconds per 1,000 requests completed (whole process). */
    readonly ratio: number;
    /** engine / autocannon, steady CPU per 1,000 requests completed. */
    readonly steady_ratio: number;
    /** undici alone, arrivals on schedule as the engine starts them (k6's constant-arrival-rate). */
    readonly undici_smooth: { completed: number; cpu_seconds_per_1k: number; steady_cpu_seconds_per_1k: number };
    /** undici alone, paced as autocannon paces overallRate (each connection's share of a second, back to back). */
    readonly undici_bursts: { completed: number; cpu_seconds_per_1k: number; steady_cpu_seconds_per_1k: number };
    /** What the pacing costs: undici on schedule / undici in bursts (steady). */
    readonly pacing_ratio: number;
    /** What the library costs: undici in bursts / autocannon (steady), both paced alike. */
    readonly library_ratio: number;
    /** What k6's semantics cost over the library: engine / undici on schedule (steady), both paced alike. */
    readonly engine_over_library: number;
    /** The leanest client (scripts/bench/lean-rate.mjs: one prebuilt request, answers read by Content-Length) on schedule. */
    readonly lean_smooth: { completed: number; cpu_seconds_per_1k: number; steady_cpu_seconds_per_1k: number };
    /** The same lean client in autocannon's bursts. */
    readonly lean_bursts: { completed: number; cpu_seconds_per_1k: number; steady_cpu_seconds_per_1k: number };
    /** The floor of any client that starts requests on schedule: lean on schedule / autocannon (steady). */
    readonly paced_floor_ratio: number;
  };
}

/** The median; the mean of the middle two for an even count. */
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** CPU ticks of this process's reaped children (cutime + cstime): a child's whole tree lands here once it is reaped. */
function reapedTicks(): number {
  const s = readFileSync('/proc/self/stat', 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return Number(f[13]) + Number(f[14]);
}

/**
 * Runs a process to its end, bounded (SIGINT at the limit, SIGKILL 15 s later); measures its CPU. Runs one at a time:
 * another child of this process that ends meanwhile would be counted too (the target runs throughout and ends after).
 */
function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv, limitMs: number): Promise<Measured> {
  return new Promise((resolve) => {
    const before = reapedTicks();
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const watch = new GeneratorWatch();
    watch.attach(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout = (stdout + c.toString()).slice(-20_000);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-4_000);
    });
    let kill: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      console.error(`  (stopping ${cmd} at its time limit of ${limitMs / 1000} s)`);
      child.kill('SIGINT');
      kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    }, limitMs);
    child.on('error', (e) => console.error(`  (could not start ${cmd}: ${e.message})`));
    child.on('close', (code) => {
      clearTimeout(limit);
      clearTimeout(kill);
      const watched = watch.stop();
      resolve({
        code,
        stdout,
        stderr,
        cpuSeconds: (reapedTicks() - before) / TICKS_PER_SECOND,
        steadyCores: median(watched.cpuCores),
        watched,
      });
    });
  });
}

export interface Target {
  readonly child: ChildProcess;
  readonly profilePath: string;
  readonly profile: {
    hosts: { base_url: string };
    api_version: string;
    account_id: string;
    project_id: string;
    env_file: string;
    credentials: Record<string, { env: string }>;
  };
  /** The target's credentials, from its .env file. */
  readonly env: Record<string, string>;
}

/** A fresh reference target in a child process of its own; its profile and credentials. */
export async function startTarget(dir: string): Promise<Target> {
  mkdirSync(dir, { recursive: true });
  const profilePath = join(dir, 'reference.json');
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dialtone.mjs'), 'target', '--profile-out', profilePath], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('the target did not start within 30 s'));
    }, 30_000);
    lines.on('line', (line) => {
      if (line.startsWith('profile:')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as Target['profile'];
  const env = Object.fromEntries(
    readFileSync(join(dir, profile.env_file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  if (!/^https?:\/\/127\.0\.0\.1[:/]/.test(profile.hosts.base_url)) {
    child.kill('SIGTERM');
    throw new Error(`the target is not on 127.0.0.1: ${profile.hosts.base_url}`);
  }
  return { child, profilePath, profile, env };
}

/** Stops a target and waits for it to go (at most 10 s), so the next part starts on a quiet machine. */
export async function stopTarget(t: Target): Promise<void> {
  if (t.child.exitCode !== null || t.child.signalCode !== null) return;
  const gone = new Promise<void>((r) => t.child.once('exit', () => r()));
  t.child.kill('SIGTERM');
  await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000).unref())]);
}

const readJson = <T>(path: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
};

/** a. chat-turns at a rate on the built-in engine, through `dialtone load` of the checkout at `root` (this one by default). */
export async function chatTurns(
  t: Target,
  rate: number,
  seconds: number,
  work: string,
  root = ROOT,
  extra: { readonly args?: readonly string[]; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<ChatTurnsRow> {
  const dir = mkdtempSync(join(work, 'chat-turns-'));
  const env = { ...process.env, ...t.env, K6_NO_USAGE_REPORT: 'true', ...extra.env };
  const args = [
    join(root, 'bin', 'dialtone.mjs'),
    'load',
    'chat-turns',
    '--target',
    t.profilePath,
    '--rate',
    String(rate),
    '--duration',
    `${seconds}s`,
    '--engine',
    'builtin',
    '--report-dir',
    dir,
    ...(extra.args ?? []),
  ];
  const m = await measure(process.execPath, args, env, (seconds + 240) * 1000);
  // 0 delivered, 5 not delivered, 99 a threshold failed: each is a measurement; anything else is worth a look.
  if (m.code !== 0 && m.code !== 5 && m.code !== 99) console.error(`  (dialtone load exited ${m.code}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')})`);
  const out = join(dir, 'load', 'chat-turns');
  const result = readJson<LoadResult>(join(out, 'result.json'));
  const summary = readJson<K6Summary>(join(out, 'summary.json')) ?? { metrics: {} };
  if (!result) console.error('  (no result.json from dialtone load)');
  const d: Delivery | undefined = result?.delivery;
  const requests = stat(summary, 'http_reqs', 'count') ?? 0;
  const watchedSeconds = m.watched.cpuCores.reduce((a, b) => a + b, 0);
  const cpuSeconds = d ? d.generator_cpu_seconds : m.cpuSeconds;
  const row: ChatTurnsRow = {
    exit_code: m.code,
    asked_conversations_per_s: d?.asked_rate ?? rate,
    delivered_conversations_per_s: d?.delivered_rate ?? (stat(summary, 'iterations', 'count') ?? 0) / seconds,
    requests_per_s: d?.requests_per_s ?? stat(summary, 'http_reqs', 'rate') ?? 0,
    turns_per_s: result?.figures.turns_per_s ?? stat(summary, 'http_reqs{op:chat.respond}', 'rate') ?? 0,
    dropped_share:
      d?.dropped_share ??
      (stat(summary, 'dropped_iterations', 'count') ?? 0) /
        Math.max(1, (stat(summary, 'iterations', 'count') ?? 0) + (stat(summary, 'dropped_iterations', 'count') ?? 0)),
    short_by: d?.short_by ?? [],
    engine_cpu_avg_cores: d?.generator_cpu_avg_cores ?? watchedSeconds / Math.max(1, m.watched.cpuCores.length),
    engine_cpu_peak_cores: d?.generator_cpu_peak_cores ?? Math.max(0, ...m.watched.cpuCores),
    engine_cpu_seconds: cpuSeconds,
    engine_cpu_ms_per_request: (cpuSeconds * 1000) / Math.max(1, requests),
    machine_busy: d?.machine_busy ?? median(m.watched.machineBusy),
    start_lag_p99_ms: d?.start_lag_p99_ms ?? stat(summary, 'iteration_start_lag', 'p(99)') ?? null,
    cpu_from: d ? 'result.json' : 'watch of dialtone load',
  };
  rmSync(dir, { recursive: true, force: true });
  return row;
}

/** b. One engine run of scripts/bench/minimal/respond-rate.js. */
async function engineRun(t: Target, rate: number, seconds: number, vus: number, work: string): Promise<RespondRun> {
  const summaryPath = join(work, `respond-engine-${Date.now()}.json`);
  const env = {
    ...process.env,
    ...t.env,
    K6_NO_USAGE_REPORT: 'true',
    BENCH_PROFILE: t.profilePath,
    BENCH_RATE: String(rate),
    BENCH_VUS: String(vus),
    BENCH_DURATION: `${seconds}s`,
    // The worker threads `dialtone load` gives the engine against this (local) target.
    ...engineThreadsEnv(builtinEngine(ROOT), t.profile as unknown as Profile),
  };
  const script = join(ROOT, 'scripts', 'bench', 'minimal', 'respond-rate.js');
  const m = await measure(
    process.execPath,
    [join(ROOT, 'bin', 'dialtone-engine.mjs'), 'run', '--quiet', '--summary-export', summaryPath, script],
    env,
    (seconds + 90) * 1000,
  );
  if (m.code !== 0) console.error(`  (the engine exited ${m.code}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')})`);
  const s = readJson<K6Summary>(summaryPath) ?? { metrics: {} };
  rmSync(summaryPath, { force: true });
  // setup()'s create is one of http_reqs; http_req_failed's passes are the failed requests.
  const all = Math.max(0, (stat(s, 'http_reqs', 'count') ?? 0) - 1);
  const failed = stat(s, 'http_req_failed', 'passes') ?? Math.round(all * (stat(s, 'http_req_failed', 'value') ?? 0));
  return respondRun('engine', m, all - failed, failed, stat(s, 'dropped_iterations', 'count') ?? 0, seconds);
}

/** The reference clients of part b, each a script run in a process of its own with the same options. */
const CLIENTS = {
  autocannon: { script: 'autocannon-rate.mjs', pacing: undefined },
  'undici-smooth': { script: 'undici-rate.mjs', pacing: 'smooth' },
  'undici-bursts': { script: 'undici-rate.mjs', pacing: 'bursts' },
  'lean-smooth': { script: 'lean-rate.mjs', pacing: 'smooth' },
  'lean-bursts': { script: 'lean-rate.mjs', pacing: 'bursts' },
} as const;
type ClientTool = keyof typeof CLIENTS;

/**
 * b. One run of a reference client on a fresh conversation (scripts/bench/autocannon-rate.mjs, undici-rate.mjs): the
 * same endpoint, rate, connections and length as the engine's run.
 */
async function clientRun(tool: ClientTool, t: Target, rate: number, seconds: number, connections: number): Promise<RespondRun> {
  const p = t.profile;
  const headers = {
    'Content-Type': 'application/json',
    'X-API-KEY': t.env[p.credentials.chat_api_key?.env ?? ''] ?? '',
    'X-TOKEN': t.env[p.credentials.chat_connector_token?.env ?? ''] ?? '',
  };
  const base = `${p.hosts.base_url}/${p.api_version}/${p.account_id}/${p.project_id}/chat`;
  const created = await request<{ conversation_id: string }>({ method: 'POST', url: `${base}/create`, headers, body: {} });
  const id = created.json?.conversation_id;
  if (!id) throw new Error(`chat/create answered ${created.status} without a conversation_id`);
  const opts = {
    url: `${base}/respond`,
    method: 'POST',
    headers,
    body: JSON.stringify({ conversation_id: id, message: 'What are your opening hours?' }),
    connections,
    overallRate: rate,
    duration: seconds,
    pacing: CLIENTS[tool].pacing,
  };
  const m = await measure(process.execPath, [join(ROOT, 'scripts', 'bench', CLIENTS[tool].script), JSON.stringify(opts)], process.env, (seconds + 60) * 1000);
  const line = m.stdout.trim().split('\n').at(-1) ?? '';
  let r = { completed: 0, non2xx: 0, errors: 0 };
  try {
    r = JSON.parse(line) as typeof r;
  } catch {
    console.error(`  (${tool} exited ${m.code} without a result: ${m.stderr.trim().split('\n').slice(-3).join(' | ')})`);
  }
  return respondRun(tool, m, r.completed, r.non2xx + r.errors, 0, seconds);
}

function respondRun(tool: RespondRun['tool'], m: Measured, completed: number, failed: number, dropped: number, seconds: number): RespondRun {
  const perSecond = completed / seconds;
  return {
    tool,
    exit_code: m.code,
    completed,
    failed,
    dropped,
    cpu_seconds: m.cpuSeconds,
    cpu_seconds_per_1k: (m.cpuSeconds * 1000) / Math.max(1, completed),
    steady_cores: m.steadyCores,
    steady_cpu_seconds_per_1k: (m.steadyCores * 1000) / Math.max(1e-9, perSecond),
  };
}

/** Both parts, each on a fresh target; every figure of the tables. */
export async function benchEngine(o: EngineBenchOptions = {}): Promise<EngineBench> {
  const seconds = o.seconds ?? 20;
  const rate = o.rate ?? 1000;
  const respondRate = o.respondRate ?? 2000;
  const rounds = o.rounds ?? 2;
  const connections = o.connections ?? 64;
  const work = mkdtempSync(join(tmpdir(), 'dialtone-bench-engine-'));
  let target: Target | undefined;
  try {
    console.log(`bench-engine: chat-turns at ${rate} conversations/s for ${seconds} s on the built-in engine…`);
    target = await startTarget(join(work, 'target-a'));
    const chat = await chatTurns(target, rate, seconds, work);
    console.log(
      `  asked ${chat.asked_conversations_per_s}/s, delivered ${chat.delivered_conversations_per_s.toFixed(1)}/s, ${chat.requests_per_s.toFixed(0)} ` +
        `requests/s, ${(chat.dropped_share * 100).toFixed(1)} % dropped, engine CPU ${chat.engine_cpu_avg_cores.toFixed(2)} cores`,
    );
    await stopTarget(target);

    target = await startTarget(join(work, 'target-b'));
    const runs: RespondRun[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const tool of ['engine', 'autocannon', 'undici-smooth', 'undici-bursts', 'lean-smooth', 'lean-bursts'] as const) {
        console.log(`bench-engine: chat/respond at ${respondRate}/s for ${seconds} s, ${tool} (round ${round + 1} of ${rounds})…`);
        const r =
          tool === 'engine'
            ? await engineRun(target, respondRate, seconds, connections, work)
            : await clientRun(tool, target, respondRate, seconds, connections);
        console.log(
          `  ${r.completed} completed, ${r.failed} failed, ${r.dropped} dropped; ${r.cpu_seconds.toFixed(2)} CPU s (${r.cpu_seconds_per_1k.toFixed(3)} ` +
            `per 1,000), steady ${r.steady_cores.toFixed(2)} cores (${r.steady_cpu_seconds_per_1k.toFixed(3)} per 1,000)`,
        );
        runs.push(r);
      }
    }
    await stopTarget(target);
    target = undefined;
    const of = (tool: RespondRun['tool']) => {
      const mine = runs.filter((r) => r.tool === tool);
      return {
        completed: median(mine.map((r) => r.completed)),
        cpu_seconds_per_1k: median(mine.map((r) => r.cpu_seconds_per_1k)),
        steady_cpu_seconds_per_1k: median(mine.map((r) => r.steady_cpu_seconds_per_1k)),
      };
    };
    const engine = of('engine');
    const cannon = of('autocannon');
    const smooth = of('undici-smooth');
    const bursts = of('undici-bursts');
    const leanSmooth = of('lean-smooth');
    const leanBursts = of('lean-bursts');
    return {
      machine: { cores: (await import('node:os')).availableParallelism(), node: process.version },
      seconds,
      chat_turns: chat,
      respond: {
        rate: respondRate,
        connections,
        runs,
        engine,
        autocannon: cannon,
        ratio: engine.cpu_seconds_per_1k / cannon.cpu_seconds_per_1k,
        steady_ratio: engine.steady_cpu_seconds_per_1k / cannon.steady_cpu_seconds_per_1k,
        undici_smooth: smooth,
        undici_bursts: bursts,
        pacing_ratio: smooth.steady_cpu_seconds_per_1k / bursts.steady_cpu_seconds_per_1k,
        library_ratio: bursts.steady_cpu_seconds_per_1k / cannon.steady_cpu_seconds_per_1k,
        engine_over_library: engine.steady_cpu_seconds_per_1k / smooth.steady_cpu_seconds_per_1k,
        lean_smooth: leanSmooth,
        lean_bursts: leanBursts,
        paced_floor_ratio: leanSmooth.steady_cpu_seconds_per_1k / cannon.steady_cpu_seconds_per_1k,
      },
    };
  } finally {
    if (target) await stopTarget(target);
    rmSync(work, { recursive: true, force: true });
  }
}

const f = (v: number, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : '—');

/** The markdown of both parts. */
export function engineTable(r: EngineBench): string {
  const c = r.chat_turns;
  const p = r.respond;
  return [
    `## Built-in engine, ${r.machine.cores} cores, Node ${r.machine.node}, ${r.seconds} s per run`,
    '',
    '### chat-turns at a rate (`dialtone load chat-turns --engine builtin`)',
    '',
    '| asked conv/s | delivered conv/s | requests/s | turns/s | dropped | engine CPU avg (peak) cores | engine CPU ms / request | start lag p99 (ms) | ' +
      'machine busy | short by | exit |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${f(c.asked_conversations_per_s)} | ${f(c.delivered_conversations_per_s)} | ${f(c.requests_per_s)} | ${f(c.turns_per_s)} | ${f(c.dropped_share * 100)} % | ${f(c.engine_cpu_avg_cores, 2)} (${f(c.engine_cpu_peak_cores, 2)}) | ${f(c.engine_cpu_ms_per_request, 3)} | ${c.start_lag_p99_ms === null ? '—' : f(c.start_lag_p99_ms, 1)} | ${f(c.machine_busy * 100)} % | ${c.short_by.join(', ') || '—'} | ${c.exit_code} |`,
    '',
    `### CPU per request: chat/respond at ${p.rate}/s, ${p.connections} VUs / connections, engine vs autocannon`,
    '',
    '| run | tool | completed (2xx) | failed | dropped | CPU s (whole process) | CPU s per 1,000 | steady cores | steady CPU s per 1,000 |',
    '|---|---|---|---|---|---|---|---|---|',
    ...p.runs.map(
      (x, i) =>
        `| ${i + 1} | ${x.tool} | ${x.completed} | ${x.failed} | ${x.dropped} | ${f(x.cpu_seconds, 2)} | ${f(x.cpu_seconds_per_1k, 3)} | ` +
        `${f(x.steady_cores, 2)} | ${f(x.steady_cpu_seconds_per_1k, 3)} |`,
    ),
    `| median | engine | ${f(p.engine.completed, 0)} | | | | ${f(p.engine.cpu_seconds_per_1k, 3)} | | ${f(p.engine.steady_cpu_seconds_per_1k, 3)} |`,
    `| median | autocannon | ${f(p.autocannon.completed, 0)} | | | | ${f(p.autocannon.cpu_seconds_per_1k, 3)} | | ` +
      `${f(p.autocannon.steady_cpu_seconds_per_1k, 3)} |`,
    `| median | undici-smooth | ${f(p.undici_smooth.completed, 0)} | | | | ${f(p.undici_smooth.cpu_seconds_per_1k, 3)} | | ` +
      `${f(p.undici_smooth.steady_cpu_seconds_per_1k, 3)} |`,
    `| median | undici-bursts | ${f(p.undici_bursts.completed, 0)} | | | | ${f(p.undici_bursts.cpu_seconds_per_1k, 3)} | | ` +
      `${f(p.undici_bursts.steady_cpu_seconds_per_1k, 3)} |`,
    `| median | lean-smooth | ${f(p.lean_smooth.completed, 0)} | | | | ${f(p.lean_smooth.cpu_seconds_per_1k, 3)} | | ` +
      `${f(p.lean_smooth.steady_cpu_seconds_per_1k, 3)} |`,
    `| median | lean-bursts | ${f(p.lean_bursts.completed, 0)} | | | | ${f(p.lean_bursts.cpu_seconds_per_1k, 3)} | | ` +
      `${f(p.lean_bursts.steady_cpu_seconds_per_1k, 3)} |`,
    `| **ratio** | **engine / autocannon** | | | | | **${f(p.ratio, 2)}** | | **${f(p.steady_ratio, 2)}** |`,
    '',
    'Where the ratio comes from (steady CPU per request; undici is the HTTP library the engine is built on):',
    '',
    '| step | ratio |',
    '|---|---|',
    `| pacing: undici on schedule (an arrival every 1/rate s, as the engine starts iterations) / undici in autocannon's bursts | ${f(p.pacing_ratio, 2)} |`,
    `| library: undici in bursts / autocannon, both paced alike | ${f(p.library_ratio, 2)} |`,
    `| k6's semantics: engine / undici on schedule, both paced alike | ${f(p.engine_over_library, 2)} |`,
    `| pacing without a library: the lean client on schedule / the lean client in bursts | ` +
      `${f(p.lean_smooth.steady_cpu_seconds_per_1k / p.lean_bursts.steady_cpu_seconds_per_1k, 2)} |`,
    `| **the floor of a paced client: the lean client on schedule / autocannon** | **${f(p.paced_floor_ratio, 2)}** |`,
    '',
  ].join('\n');
}

/** Writes the tables to reports/bench/engine.md; returns its path. */
export function writeEngineReport(r: EngineBench): string {
  const dir = join(ROOT, 'reports', 'bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'engine.md');
  writeFileSync(path, engineTable(r));
  return path;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      rate: { type: 'string' },
      'respond-rate': { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
    },
  });
  const num = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!(Number.isInteger(n) && n > 0)) throw new Error(`--${name} must be a positive integer, got '${v}'`);
    return n;
  };
  const r = await benchEngine({
    seconds: num('seconds', values.seconds),
    rate: num('rate', values.rate),
    respondRate: num('respond-rate', values['respond-rate']),
    rounds: num('rounds', values.rounds),
    connections: num('connections', values.connections),
  });
  console.log(engineTable(r));
  console.log(`written: ${writeEngineReport(r)}`);
  console.log(JSON.stringify(r));
}
