// The gate across a network: `dialtone conformance` against the reference target behind a delay proxy on every host the
// profile names (HTTP and WebSocket; the control surface too), at each added round trip, with its wall time and counts.
// Run by `npm run bench`, or alone:
//   node --import tsx scripts/bench-gate.ts [--rtt 0,100,300] [--jitter 40] [--only GLOB]
//
// A fresh reference target per round trip (`dialtone target`, a process of its own), so no run sees what another
// created; the proxies (src/tools/delay-proxy.ts) run in this process, the gate in a process of its own, as a user runs
// it. The wall time is the gate command's, from its start to its exit; `gate_ms` is the suite's own (results.json).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type DelayProxy, startDelayProxy, throughProxy } from '../src/tools/delay-proxy.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One gate run at one added round trip. */
export interface GateRun {
  readonly rtt_ms: number;
  readonly jitter_ms: number;
  readonly exit_code: number | null;
  readonly wall_s: number;
  readonly gate_s: number;
  /** CPU seconds of the gate's process, the target's and the proxies' (Linux: /proc), so a run on a busy machine still says what it asked of it. */
  readonly cpu_s: { gate: number; target: number; proxies: number } | undefined;
  readonly pass: number;
  readonly observed: number;
  readonly skip: number;
  readonly fail: number;
  /** The case list in report order, rule and outcome, to compare runs by. */
  readonly cases: string[];
}

/** Starts `dialtone target` in a process of its own and waits until it has written its profile. */
async function startTarget(dir: string): Promise<{ child: ChildProcess; profilePath: string }> {
  const profilePath = join(dir, 'ref.json');
  const child = spawn(process.execPath, ['bin/dialtone.mjs', 'target', '--profile-out', profilePath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dialtone target did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
      if (/^profile: /m.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`dialtone target exited with ${code}: ${output}`)));
  });
  return { child, profilePath };
}

/** CPU seconds a process has used so far, user and system, its threads included; undefined off Linux or once it ended. */
function cpuOf(pid: number | undefined): number | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** A seeded draw (mulberry32): the same jitter at every run of the benchmark. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes beside `profilePath` the same profile with every host (and the control surface) behind a delay proxy. */
async function proxiedProfile(profilePath: string, rttMs: number, jitterMs: number): Promise<{ path: string; proxies: DelayProxy[] }> {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const proxies: DelayProxy[] = [];
  const random = seeded(47);
  const behind = async (url: string) => {
    const u = new URL(url);
    const proxy = await startDelayProxy(u.hostname, Number(u.port), { rttMs, jitterMs, random });
    proxies.push(proxy);
    return throughProxy(url, proxy);
  };
  for (const [key, url] of Object.entries(profile.hosts as Record<string, string>)) profile.hosts[key] = await behind(url);
  if (profile.control) profile.control.url = await behind(profile.control.url);
  const path = profilePath.replace(/\.json$/, `-rtt${rttMs}.json`);
  writeFileSync(path, `${JSON.stringify(profile, null, 2)}\n`);
  return { path, proxies };
}

/** Runs the gate once against a fresh reference target behind `rttMs` of added round trip. */
export async function benchGateAt(rttMs: number, o: { jitterMs?: number; only?: string } = {}): Promise<GateRun> {
  const jitterMs = rttMs === 0 ? 0 : (o.jitterMs ?? 40);
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-bench-gate-'));
  const target = await startTarget(dir);
  const { path, proxies } = await proxiedProfile(target.profilePath, rttMs, jitterMs);
  try {
    const reportDir = join(dir, 'report');
    const args = ['bin/dialtone.mjs', 'conformance', '--target', path, '--report-dir', reportDir, ...(o.only ? ['--only', o.only] : [])];
    const targetBefore = cpuOf(target.child.pid);
    const proxiesBefore = process.cpuUsage();
    const started = performance.now();
    const gate = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    // The last reading before it exits: /proc forgets a process once it has been reaped.
    let gateCpu: number | undefined;
    const sampler = setInterval(() => {
      gateCpu = cpuOf(gate.pid) ?? gateCpu;
    }, 250);
    const [code] = (await once(gate, 'exit')) as [number | null];
    clearInterval(sampler);
    const wall = (performance.now() - started) / 1000;
    const targetAfter = cpuOf(target.child.pid);
    const proxies = process.cpuUsage(proxiesBefore);
    const round = (n: number) => Math.round(n * 10) / 10;
    const cpu =
      gateCpu !== undefined && targetBefore !== undefined && targetAfter !== undefined
        ? { gate: round(gateCpu), target: round(targetAfter - targetBefore), proxies: round((proxies.user + proxies.system) / 1e6) }
        : undefined;
    const resultsPath = join(reportDir, 'conformance', 'results.json');
    if (!existsSync(resultsPath)) throw new Error(`the gate at ${rttMs} ms exited ${code} and wrote no report (its stderr is above)`);
    const results = JSON.parse(readFileSync(resultsPath, 'utf8'));
    const t = results.totals;
    return {
      rtt_ms: rttMs,
      jitter_ms: jitterMs,
      exit_code: code,
      wall_s: Math.round(wall * 10) / 10,
      gate_s: Math.round(results.duration_ms / 100) / 10,
      cpu_s: cpu,
      pass: t.pass,
      observed: t.observed,
      skip: t.skip,
      fail: t.fail,
      cases: results.cases.map((c: { rule: string; outcome: string }) => `${c.rule} ${c.outcome}`),
    };
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    target.child.kill('SIGTERM');
    await once(target.child, 'exit');
  }
}

/** The gate at each round trip, one after the other. */
export async function benchGate(o: { rtts?: number[]; jitterMs?: number; only?: string } = {}): Promise<GateRun[]> {
  const runs: GateRun[] = [];
  for (const rtt of o.rtts ?? [0, 100, 300]) {
    console.log(`bench: the gate behind ${rtt} ms of added round trip…`);
    runs.push(await benchGateAt(rtt, o));
  }
  return runs;
}

/** A markdown table of the runs, and whether each ran the same cases with the same outcomes as the first. */
export function gateTable(runs: readonly GateRun[]): string {
  const first = runs[0];
  const cpu = (r: GateRun) => (r.cpu_s ? `${r.cpu_s.gate} + ${r.cpu_s.target} + ${r.cpu_s.proxies}` : 'n/a');
  const same = (r: GateRun) => (first && r.cases.join('\n') === first.cases.join('\n') ? 'yes' : 'no');
  const rows = runs.map((r) =>
    [`${r.rtt_ms} ± ${r.jitter_ms / 2}`, r.wall_s, r.gate_s, cpu(r), r.pass, r.observed, r.skip, r.fail, r.exit_code, same(r)].join(' | '),
  );
  return [
    '| added RTT (ms) | wall (s) | suite (s) | CPU s: gate + target + proxies | pass | observed | skip | fail | exit | same cases and outcomes as the first |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { rtt: { type: 'string' }, jitter: { type: 'string' }, only: { type: 'string' } } });
  const rtts = (values.rtt ?? '0,100,300').split(',').map(Number);
  if (rtts.some((n) => !(Number.isInteger(n) && n >= 0))) throw new Error(`--rtt takes whole milliseconds, comma-separated, got '${values.rtt}'`);
  const jitterMs = values.jitter === undefined ? undefined : Number(values.jitter);
  const runs = await benchGate({ rtts, ...(jitterMs !== undefined ? { jitterMs } : {}), ...(values.only ? { only: values.only } : {}) });
  console.log(gateTable(runs));
  writeFileSync(join(tmpdir(), 'dialtone-bench-gate.json'), `${JSON.stringify(runs, null, 2)}\n`);
  console.log(`cases and outcomes: ${join(tmpdir(), 'dialtone-bench-gate.json')}`);
}
