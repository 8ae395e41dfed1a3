// One step of the capacity search: the scenario at a constant arrival rate, run by the engine (the user's k6 or the
// built-in one), with the generator's own CPU sampled from /proc while it runs.
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type K6Summary, stat } from '../core/summary.js';
import type { ClosedModelDefaults, LearnedWorkload, SloEntry } from '../load/config.js';
import { liveSink } from '../load/dashboard/sink.js';
import type { Engine } from '../load/engine.js';
import { startEngine } from '../load/spawn-engine.js';
import { type ThresholdResult, thresholdsOf } from '../load/summary.js';
import { redact } from '../profile/redact.js';
import { sampleCpu } from './cpu.js';
import { ANSWERED, OBSERVED, PHASE_TAG, STARTED, STEP_ENV, type StepShape, steadyKey } from './wrapper.js';

/** What the step runner needs from the search: the prepared run, minus the rate. */
export interface StepContext {
  /** The user's k6 or the built-in engine: spawned as `engine.command [...engine.args, 'run', …]`. */
  readonly engine: Engine;
  /** The wrapper script (src/capacity/wrapper.ts) next to the bundled scenario. */
  readonly script: string;
  /** Environment for the engine: the LoadConfig, the credentials' variables, the browser's. */
  readonly env: Readonly<Record<string, string>>;
  readonly secrets: readonly string[];
  readonly workDir: string;
  /** The SLOs every step is judged by, with where each came from (the scenario's defaults or the profile). */
  readonly slos?: readonly SloEntry[] | undefined;
  /** The closed model (--model closed): each step holds `rate` of these, sending messageRate a second on each socket. */
  readonly closed?: ClosedModelDefaults | undefined;
  /** The learned workload (--workload learned): each iteration is a conversation played from a traffic model. */
  readonly learned?: LearnedWorkload | undefined;
}

/** One step as the search asks for it: which, at what rate, for how long. */
export interface StepPlan {
  readonly index: number;
  readonly stage: StepResult['stage'];
  readonly rate: number;
  readonly durationS: number;
  readonly warmupS: number;
  readonly maxVUs: number;
  readonly gracefulStopS?: number;
  /** Mean iteration time seen on earlier steps, to pre-allocate VUs. */
  readonly iterationS?: number | undefined;
}

/** Latency percentiles of one operation or timing metric in the steady part of a step, in ms. */
export interface Percentiles {
  readonly p50: number | undefined;
  readonly p95: number | undefined;
  readonly p99: number | undefined;
}

/** One step's measurements (steady part only, unless said otherwise). */
export interface StepResult {
  readonly index: number;
  readonly stage: 'coarse' | 'refine' | 'confirm';
  /** Iterations per second the executor was asked to start. */
  readonly offered_rate: number;
  readonly duration_s: number;
  readonly warmup_s: number;
  /** Iterations per second completed in the steady part. */
  readonly throughput: number;
  /**
   * HTTP requests per second of iterations that started in the steady part. Their requests may fall after it (an
   * iteration's samples carry the phase it started in), so for long iterations this runs above the wire rate.
   */
  readonly requests_per_s: number;
  /** HTTP requests per completed iteration over the whole step (warm-up and setup included): the iteration's cost. */
  readonly requests_per_iteration: number | undefined;
  readonly error_rate: number;
  /** Iterations the executor could not start on time (whole step). */
  readonly dropped_iterations: number;
  readonly dropped_share: number;
  readonly vus_in_use: number;
  readonly vus_cap: number;
  /** The engine's process tree's CPU over the steady part, in cores (1 = one core busy). */
  readonly generator_cpu_cores: number | undefined;
  /** Share of the machine's CPU busy over the steady part, every process counted (a loopback target's too). */
  readonly machine_busy: number | undefined;
  readonly mean_iteration_s: number | undefined;
  /**
   * How widely iteration times spread in the steady part, in seconds: (p95 − median) / 1.645, about one standard
   * deviation. Completions near the window's edges fall in or out of it by that much, so the keep-up rule allows for it.
   */
  readonly iteration_spread_s?: number | undefined;
  /** Little's law: throughput × mean iteration time. */
  readonly concurrency: number | undefined;
  readonly latency: Readonly<Record<string, Percentiles>>;
  /** The scenario's own thresholds (its SLOs), judged on the steady part. */
  readonly thresholds: readonly ThresholdResult[];
  readonly slo_held: boolean;
  readonly k6_exit_code: number;
  readonly wall_s: number;
  /**
   * The closed model: its work a second (messages, or a held call's turns: the declaration's closedWork) offered
   * (held × sockets × rate per socket) and answered in full in the steady part. `offered_rate` is then the number held
   * and `throughput` the answered work in units of held ones.
   */
  readonly messages?: { readonly offered_per_s: number; readonly answered_per_s: number };
  /**
   * The learned workload: conversations started and completed a second in the steady part. `throughput` is the
   * completed ones, as for any iteration; the started ones say whether the load asked was delivered.
   */
  readonly conversations?: { readonly started_per_s: number; readonly completed_per_s: number };
}

/** A metric key without the phase tag: `m{op:x,dialtone_phase:steady}` → `m{op:x}`, `m{dialtone_phase:steady}` → `m`. */
const bareName = (key: string) => key.replace(`,${PHASE_TAG}:steady}`, '}').replace(`{${PHASE_TAG}:steady}`, '');

/** The scenario's thresholds, without the observation-only ones the wrapper adds. */
function sloThresholds(summary: K6Summary, closed?: ClosedModelDefaults): ThresholdResult[] {
  const extra = { ...(closed ? { [closed.answered]: ANSWERED } : {}), [STARTED]: ANSWERED };
  const observed = new Set(Object.entries({ ...OBSERVED, ...extra }).map(([m, e]) => `${steadyKey(m)} ${e}`));
  return thresholdsOf(summary)
    .filter((t) => !observed.has(`${t.metric} ${t.expression}`))
    .map((t) => ({ ...t, metric: bareName(t.metric) }));
}

/** p50/p95/p99 of every steady trend in the summary, by metric name without the phase tag. */
function latencies(summary: K6Summary): Record<string, Percentiles> {
  const out: Record<string, Percentiles> = {};
  for (const [key, m] of Object.entries(summary.metrics)) {
    if (!key.includes(`${PHASE_TAG}:steady`) || typeof m['p(95)'] !== 'number' || key.startsWith('iteration_duration')) continue;
    const n = (k: string) => (typeof m[k] === 'number' ? (m[k] as number) : undefined);
    out[bareName(key)] = { p50: n('med'), p95: n('p(95)'), p99: n('p(99)') };
  }
  return out;
}

/**
 * The VU budget for a rate: pre-allocated for the iteration time seen so far (k6 drops arrivals while
 * it initialises VUs on demand, which would look like saturation), at most `maxVUs`. The cap allows iterations of
 * `longestS` twice over (15 s by default); `spare` is how many times Little's law's pool is pre-allocated.
 *
 * @example
 * vuBudget(2, 2000, 37.9, { longestS: 82.6, spare: 1.5 }) // { preAllocatedVUs: 114, maxVUs: 331 }
 */
export function vuBudget(
  rate: number,
  maxVUs: number,
  iterationS = 1,
  options: { readonly longestS?: number; readonly spare?: number } = {},
): { preAllocatedVUs: number; maxVUs: number } {
  const cap = Math.min(maxVUs, Math.max(20, Math.ceil(rate * 2 * (options.longestS ?? 15))));
  return { preAllocatedVUs: Math.min(cap, Math.max(5, Math.ceil(rate * Math.max(0.2, iterationS) * (options.spare ?? 3)))), maxVUs: cap };
}

/** Requests per completed iteration, when any completed. */
const perIteration = (requests: number | undefined, iterations: number | undefined) =>
  requests !== undefined && iterations ? requests / iterations : undefined;

/** Seconds k6 may take to start and stop around a step: initialising many VUs on a busy machine takes a while. */
const startStopAllowanceS = (vus: number) => 60 + Math.ceil(vus * 0.25);

/**
 * Where a step's histograms go (the built-in engine's `--out histograms=FILE`), in the search's scratch folder.
 *
 * @example
 * stepHistogramsFile('reports/capacity/chat-turns/.work', 3); // 'reports/capacity/chat-turns/.work/step-3.histograms.json'
 */
export const stepHistogramsFile = (workDir: string, index: number): string => join(workDir, `step-${index}.histograms.json`);

/**
 * Runs one step and reads its steady-state figures from k6's summary.
 *
 * @example
 * const s = await runStep(ctx, { index: 0, stage: 'coarse', rate: 2, durationS: 8, warmupS: 2, maxVUs: 500 });
 * s.slo_held; // every scenario threshold held on the steady part
 */
export async function runStep(ctx: StepContext, stepPlan: StepPlan): Promise<StepResult> {
  const { closed, learned } = ctx;
  // The closed model holds whole sessions: one VU each, for the whole step.
  const held = closed ? Math.max(1, Math.round(stepPlan.rate)) : 0;
  // A learned conversation lasts as the model says (think times are real): the pool is Little's law's for its mean
  // duration, half as much again, up to twice its p99 (as `load --workload learned` sizes it).
  const budget = closed
    ? { preAllocatedVUs: held, maxVUs: held }
    : learned
      ? vuBudget(stepPlan.rate, stepPlan.maxVUs, Math.max(stepPlan.iterationS ?? 0, learned.durationS.mean), { longestS: learned.durationS.p99, spare: 1.5 })
      : vuBudget(stepPlan.rate, stepPlan.maxVUs, stepPlan.iterationS);
  const shape: StepShape = {
    perMinute: closed ? held * 60 : Math.max(1, Math.round(stepPlan.rate * 60)),
    durationS: stepPlan.durationS,
    warmupS: stepPlan.warmupS,
    gracefulStopS: stepPlan.gracefulStopS ?? 3,
    ...budget,
    ...(closed ? { closed: { sessions: held, messageRate: closed.messageRate, slos: closed.slos, answered: closed.answered } } : {}),
    ...(learned ? { learned: true } : {}),
  };
  const summaryPath = join(ctx.workDir, `step-${stepPlan.index}.summary.json`);
  rmSync(summaryPath, { force: true });
  const log = createWriteStream(join(ctx.workDir, `step-${stepPlan.index}.engine.log`));
  const started = Date.now();
  let cpu: ReturnType<typeof sampleCpu> | undefined;
  // The built-in engine keeps the step's bounded histograms for the page's run over time; k6 would need every sample.
  const histograms = ctx.engine.kind === 'builtin' ? ['--out', `histograms=${stepHistogramsFile(ctx.workDir, stepPlan.index)}`] : [];
  const offered = closed ? `${held} held sessions` : `${Number(stepPlan.rate.toFixed(2))}/s offered`;
  liveSink()?.step(`step ${stepPlan.index} (${stepPlan.stage}): ${offered} for ${stepPlan.durationS} s`);
  const run = startEngine({
    engine: ctx.engine,
    args: ['--no-color', '--quiet', '--summary-export', summaryPath, ...histograms, ctx.script],
    env: { ...process.env, ...ctx.env, [STEP_ENV]: JSON.stringify(shape), K6_NO_USAGE_REPORT: 'true' },
    output: (c) => log.write(redact(c.toString('utf8'), ctx.secrets)),
    // Bounded: the step's own length, its graceful stop and time for k6 to start (VUs) and stop.
    limit: { seconds: stepPlan.durationS + shape.gracefulStopS + startStopAllowanceS(budget.preAllocatedVUs), signal: 'SIGKILL' },
  });
  if (run.child.pid) cpu = sampleCpu(run.child.pid, stepPlan.warmupS * 1000);
  const exitCode = await run.exited;
  cpu?.stop();
  await new Promise((r) => log.end(r));
  const summary: K6Summary = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary) : { metrics: {} };
  const steadyS = Math.max(1, stepPlan.durationS - stepPlan.warmupS);
  const s = (metric: string, key: string) => stat(summary, steadyKey(metric), key);
  // A held session's messages per second at full pace: the closed model's throughput is counted in held sessions.
  const perHeld = closed ? closed.sockets * closed.messageRate : 0;
  const answeredPerS = closed ? (s(closed.answered, 'count') ?? 0) / steadyS : 0;
  const completedPerS = (s('iterations', 'count') ?? 0) / steadyS;
  const startedPerS = (s(STARTED, 'count') ?? 0) / steadyS;
  const throughput = closed ? answeredPerS / perHeld : completedPerS;
  // A held session's iteration is the whole step: its duration says nothing of the work's.
  const meanIterationMs = closed ? undefined : s('iteration_duration', 'avg');
  const [medMs, p95Ms] = closed ? [undefined, undefined] : [s('iteration_duration', 'med'), s('iteration_duration', 'p(95)')];
  const dropped = stat(summary, 'dropped_iterations', 'count') ?? 0;
  const thresholds = sloThresholds(summary, closed);
  const offeredTotal = shape.perMinute * (stepPlan.durationS / 60);
  return {
    index: stepPlan.index,
    stage: stepPlan.stage,
    offered_rate: shape.perMinute / 60,
    duration_s: stepPlan.durationS,
    warmup_s: stepPlan.warmupS,
    throughput,
    requests_per_s: (s('http_reqs', 'count') ?? 0) / steadyS,
    requests_per_iteration: perIteration(stat(summary, 'http_reqs', 'count'), stat(summary, 'iterations', 'count')),
    error_rate: s('http_req_failed', 'value') ?? s('http_req_failed', 'rate') ?? 0,
    dropped_iterations: dropped,
    dropped_share: offeredTotal > 0 ? dropped / offeredTotal : 0,
    vus_in_use: stat(summary, 'vus', 'max') ?? 0,
    vus_cap: budget.maxVUs,
    generator_cpu_cores: cpu?.cores,
    machine_busy: cpu?.machineBusy,
    mean_iteration_s: meanIterationMs === undefined ? undefined : meanIterationMs / 1000,
    ...(medMs !== undefined && p95Ms !== undefined ? { iteration_spread_s: Math.max(0, p95Ms - medMs) / 1645 } : {}),
    concurrency: closed ? held : meanIterationMs === undefined ? undefined : throughput * (meanIterationMs / 1000),
    latency: latencies(summary),
    thresholds,
    // A step with no summary or no threshold judged did not show the SLOs held.
    slo_held: thresholds.length > 0 && thresholds.every((t) => t.passed) && (exitCode === 0 || exitCode === 99),
    k6_exit_code: exitCode,
    wall_s: (Date.now() - started) / 1000,
    ...(closed ? { messages: { offered_per_s: held * perHeld, answered_per_s: answeredPerS } } : {}),
    ...(learned ? { conversations: { started_per_s: startedPerS, completed_per_s: completedPerS } } : {}),
  };
}
