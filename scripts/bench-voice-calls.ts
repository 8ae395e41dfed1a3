// Voice calls per engine core (npm run bench, part 7): the voice-calls scenario (werift callers in the built-in engine,
// audio both ways, turns of the shipped utterance) at rising concurrency against one reference target in a process of
// its own, then voice-browser (Chromium, 4 calls a browser) against the same target, one run each. Against a local
// target the engine takes one worker thread on this 2-core machine (src/load/engine-threads.ts): one engine core.
//
// For each run: calls held at once, whether every SLO held (the scenario's defaults), the generator's CPU (the engine
// process and its children, Chromium included, from /proc), CPU per call, and calls per engine core = calls / cores
// used. "Held per engine core" is the most calls of a run that kept every SLO with one engine worker.
//
// Alone: node --import tsx scripts/bench-voice-calls.ts [--calls 10,25,50,75,100] [--seconds 60] [--browsers 2]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = new URL('..', import.meta.url).pathname;
const DIALTONE = join(ROOT, 'bin', 'dialtone.mjs');
/** Calls one voice-browser iteration holds in the nightly workload (scenarios/voice-browser.ts, CALLS.nightly). */
const BROWSER_CALLS = 4;

/** One run's figures. */
export interface VoiceRun {
  readonly scenario: 'voice-calls' | 'voice-browser';
  readonly calls: number;
  readonly exit: number | null;
  readonly slosHeld: boolean;
  readonly failed: readonly string[];
  readonly cpuCores: number;
  readonly cpuPeakCores: number;
  /** Engine CPU per call held, in milliseconds of CPU a second (10 = 1 % of a core). */
  readonly cpuMsPerCallSecond: number;
  readonly callsPerCore: number;
  readonly turnLatencyP95Ms: number | null;
  readonly timeToConnectedP95Ms: number | null;
}

/** The reference target in its own process; resolves with its profile once it listens. */
async function startTarget(dir: string): Promise<{ profile: string; stop: () => void }> {
  const profile = join(dir, 'ref.json');
  const child = spawn(process.execPath, [DIALTONE, 'target', '--profile-out', profile, '--no-voice-client-page'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('profile:')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the target exited ${code}: ${out}`)));
  });
  return { profile, stop: () => child.kill('SIGTERM') };
}

function loadRun(scenario: VoiceRun['scenario'], o: { profile: string; dir: string; rate: number; calls: number; seconds: number }): VoiceRun {
  const reports = join(o.dir, `${scenario}-${o.calls}`);
  const args = [DIALTONE, 'load', scenario, '--target', o.profile, '--engine', 'builtin', '--workload', 'nightly'];
  const r = spawnSync(process.execPath, [...args, '--rate', String(o.rate), '--duration', `${o.seconds}s`, '--report-dir', reports], { encoding: 'utf8' });
  const result = JSON.parse(readFileSync(join(reports, 'load', scenario, 'result.json'), 'utf8'));
  const failed = (result.thresholds as { metric: string; expression: string; passed: boolean }[])
    .filter((t) => !t.passed)
    .map((t) => `${t.metric} ${t.expression}`);
  const cpu = result.delivery.generator_cpu_avg_cores as number;
  const metric = (key: string): number | null => {
    const v = result.metrics?.[key]?.value;
    return typeof v === 'number' ? v : null;
  };
  const prefix = scenario === 'voice-calls' ? 'voice_call' : 'voice_browser';
  return {
    scenario,
    calls: o.calls,
    exit: r.status,
    slosHeld: failed.length === 0,
    failed,
    cpuCores: cpu,
    cpuPeakCores: result.delivery.generator_cpu_peak_cores as number,
    cpuMsPerCallSecond: (cpu * 1000) / o.calls,
    callsPerCore: cpu > 0 ? o.calls / cpu : 0,
    turnLatencyP95Ms: metric('voice_call_turn_latency p95'),
    timeToConnectedP95Ms: metric(`${prefix}_time_to_connected p95`),
  };
}

/**
 * Runs voice-calls at each concurrency and voice-browser once, against one reference target.
 *
 * @example
 * const runs = await benchVoiceCalls({ calls: [10, 25, 50], seconds: 60, browsers: 2 });
 */
export async function benchVoiceCalls(o: { calls?: readonly number[]; seconds?: number; browsers?: number } = {}): Promise<VoiceRun[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-bench-voice-'));
  const seconds = o.seconds ?? 60;
  const target = await startTarget(dir);
  const runs: VoiceRun[] = [];
  try {
    for (const calls of o.calls ?? [10, 25, 50, 75, 100]) {
      const run = loadRun('voice-calls', { profile: target.profile, dir, rate: calls, calls, seconds });
      runs.push(run);
      console.log(runLine(run));
    }
    const browsers = o.browsers ?? 2;
    const run = loadRun('voice-browser', { profile: target.profile, dir, rate: browsers, calls: browsers * BROWSER_CALLS, seconds });
    runs.push(run);
    console.log(runLine(run));
  } finally {
    target.stop();
  }
  return runs;
}

const fmt = (v: number | null, d = 0) => (v === null ? '-' : v.toFixed(d));

function runLine(r: VoiceRun): string {
  return [
    `${r.scenario.padEnd(13)} ${String(r.calls).padStart(5)} calls  SLOs ${r.slosHeld ? 'held  ' : 'BROKEN'}`,
    `  engine CPU ${fmt(r.cpuCores, 2)} cores (peak ${fmt(r.cpuPeakCores, 2)})  ${fmt(r.cpuMsPerCallSecond, 1)} CPU-ms/s a call`,
    `  ${fmt(r.callsPerCore, 0)} calls per core  turn p95 ${fmt(r.turnLatencyP95Ms)} ms  connect p95 ${fmt(r.timeToConnectedP95Ms)} ms`,
    r.failed.length ? `  failed: ${r.failed.join(', ')}` : '',
  ].join('');
}

/** The table bench.ts prints: each run, then the most calls voice-calls held with every SLO, per engine core. */
export function voiceTable(runs: readonly VoiceRun[]): string {
  const held = runs.filter((r) => r.scenario === 'voice-calls' && r.slosHeld).sort((a, b) => b.calls - a.calls)[0];
  const browser = runs.find((r) => r.scenario === 'voice-browser');
  // The engine's start (bundling, loading werift and the codec) is in every run's average: the CPU each added call
  // costs, between one concurrency and the next, leaves it out.
  const calls = runs.filter((r) => r.scenario === 'voice-calls');
  const marginal = calls.slice(1).map((r, i) => {
    const before = calls[i] as VoiceRun;
    return `${before.calls}→${r.calls}: ${fmt(((r.cpuCores - before.cpuCores) * 1000) / (r.calls - before.calls), 1)}`;
  });
  return [
    ...runs.map(runLine),
    marginal.length ? `voice-calls CPU-ms/s each added call costs: ${marginal.join(', ')}` : '',
    held
      ? `voice-calls: ${held.calls} calls held with every SLO on one engine worker (${fmt(held.callsPerCore, 0)} calls per core used, ` +
        `${fmt(held.cpuMsPerCallSecond, 1)} CPU-ms/s a call)`
      : 'voice-calls: no concurrency held every SLO',
    browser
      ? `voice-browser: ${browser.calls} calls, ${fmt(browser.cpuMsPerCallSecond, 1)} CPU-ms/s a call (Chromium included), SLOs ` +
        `${browser.slosHeld ? 'held' : 'broken'}`
      : '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { calls: { type: 'string' }, seconds: { type: 'string' }, browsers: { type: 'string' } } });
  const runs = await benchVoiceCalls({
    ...(values.calls ? { calls: values.calls.split(',').map(Number) } : {}),
    ...(values.seconds ? { seconds: Number(values.seconds) } : {}),
    ...(values.browsers ? { browsers: Number(values.browsers) } : {}),
  });
  console.log(voiceTable(runs));
}
