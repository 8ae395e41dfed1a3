// The conformance gate under load: the suite idle, then again while a load scenario holds the target
// at a constant arrival rate; the report lists the rules that passed idle but failed under load.
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { type K6Summary, stat } from '../core/summary.js';
import { EnvironmentError, UsageError } from '../errors.js';
import { type EngineId, engineId, engineName } from '../load/engine.js';
import { interruption } from '../load/interrupt.js';
import type { TargetedPlan } from '../load/plan.js';
import { sloSetName } from '../load/slos.js';
import { startEngine } from '../load/spawn-engine.js';
import { timelineOfRun } from '../load/timeline-file.js';
import { sloKeysOf, timelineSection } from '../load/timeline-plots.js';
import type { LoadedProfile } from '../profile/load.js';
import { redact } from '../profile/redact.js';
import { esc, page } from '../report/html.js';
import type { Results } from '../report/results.js';
import { writeReportFiles } from '../report/write.js';
import { DIALTONE_VERSION } from '../version.js';
import { prepareSteps } from './prepare.js';
import type { StepContext } from './step.js';
import { vuBudget } from './step.js';
import { STEP_ENV, type StepShape } from './wrapper.js';

/** Seconds the load runs before the gate starts, so the target is at its rate when the cases run. */
const RAMP_S = 5;
/** Upper bound on the engine's start (VU initialisation) before the gate gives up. */
const START_TIMEOUT_S = 120;
/** Upper bound on the hold: the gate under load must end well before. */
const HOLD_MAX_S = 1200;
/** Share of the asked rate the engine must have completed while the gate ran for the load to count as delivered. */
export const DELIVERED_SHARE = 0.9;
/**
 * The load is measured over the gate's run and at least this long. Completed iterations reach the count in batches (the
 * built-in engine's workers report every 100 ms, later on a busy machine), so over a gate of a second (chat.* against the
 * reference target) a batch either side moves the rate by 10 %: 35.96/s of 40 asked, "not delivered".
 */
export const MIN_MEASURE_S = 8;

/** Parses `SCENARIO@RATE` (iterations per second). */
export function parseUnderLoad(v: string): { scenario: string; rate: number } {
  const m = /^([a-z0-9-]+)@(\d+(?:\.\d+)?)$/.exec(v);
  if (!m || !(Number(m[2]) > 0)) throw new UsageError(`conformance: --under-load must look like SCENARIO@RATE, e.g. chat-turns@30, got '${v}'`);
  return { scenario: m[1] as string, rate: Number(m[2]) };
}

/** Thrown where a stop signal is seen: the gate under load ends there, its load stopped, with no verdict. */
class Cut extends Error {}
function stopIfInterrupted(): void {
  const cut = interruption();
  if (cut) throw new Cut(`interrupted by ${cut.signal}`);
}

/** A free loopback port for the engine's REST API (k6's, which the built-in engine serves too). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Iterations the engine has completed so far, from its REST API; undefined while it does not answer. */
async function iterationsSoFar(port: number): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/metrics/iterations`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: { attributes?: { sample?: { count?: number } } } };
    return body.data?.attributes?.sample?.count;
  } catch {
    return undefined;
  }
}

/** A load held at a constant rate until stopped; `stop` resolves with what the engine achieved. */
function holdLoad(
  ctx: StepContext,
  rate: number,
  port: number,
): { running: () => Promise<number | undefined>; stop: () => Promise<{ iterations: number; seconds: number }>; samples: string } {
  // Few VUs up front (the engine starts faster), more on demand up to the step budget.
  const budget = vuBudget(rate, 2000);
  const shape: StepShape = {
    perMinute: Math.max(1, Math.round(rate * 60)),
    durationS: HOLD_MAX_S,
    warmupS: 0,
    gracefulStopS: 2,
    preAllocatedVUs: Math.min(budget.maxVUs, Math.max(5, Math.ceil(rate))),
    maxVUs: budget.maxVUs,
  };
  const summaryPath = join(ctx.workDir, 'hold.summary.json');
  // The held load's own samples, for the page's run over time; at the gate's modest rate they cost the generator little.
  const samples = join(ctx.workDir, 'hold.samples.json.gz');
  const started = Date.now();
  const log = createWriteStream(join(ctx.workDir, 'hold.engine.log'));
  const run = startEngine({
    engine: ctx.engine,
    args: ['--no-color', '--quiet', '--address', `127.0.0.1:${port}`, '--summary-export', summaryPath, '--out', `json=${samples}`, ctx.script],
    env: { ...process.env, ...ctx.env, [STEP_ENV]: JSON.stringify(shape), K6_NO_USAGE_REPORT: 'true' },
    output: (c) => log.write(redact(c.toString('utf8'), ctx.secrets)),
  });
  return {
    samples,
    running: () => iterationsSoFar(port),
    async stop() {
      const seconds = (Date.now() - started) / 1000;
      run.stop();
      await run.exited;
      const summary: K6Summary = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary) : { metrics: {} };
      return { iterations: stat(summary, 'iterations', 'count') ?? 0, seconds };
    },
  };
}

/**
 * Iterations the engine completed so far, asked a few times: a busy generator may miss one 2 s answer. Never guessed (a 0 would
 * count the whole ramp into the gate's window and make the load look delivered).
 */
async function countOf(hold: { running: () => Promise<number | undefined> }, scenario: string): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const n = await hold.running();
    if (n !== undefined) return n;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new EnvironmentError(`conformance: the engine running ${scenario} stopped answering on its REST API, so the load it held is unknown`);
}

/** What under-load.json holds. */
export interface UnderLoadResult {
  /** dialtone's version (package.json). */
  readonly tool_version: string;
  readonly scenario: string;
  readonly rate: number;
  /** The engine that held the load: the user's k6 or the built-in engine, with its version. */
  readonly engine: EngineId;
  /** Iterations per second the engine completed while the gate under load ran, over measured_s. */
  readonly achieved_rate: number;
  /** Seconds the load was measured over: the gate's run, and at least MIN_MEASURE_S (the load held on that long). */
  readonly measured_s: number;
  /** Whether that was at least DELIVERED_SHARE of the rate asked: a gate under less load judged something else. */
  readonly load_delivered: boolean;
  readonly idle_gate: string;
  readonly under_load_gate: string;
  /** Rules that passed idle and failed under load. */
  readonly failed_only_under_load: readonly string[];
  /** Rules that failed in both runs. */
  readonly failed_in_both: readonly string[];
  /** The SLO set of the load that was held (the scenario's defaults, or the profile's `slos`). */
  readonly slo_set?: string | undefined;
  /**
   * A stop signal ended the run: no verdict. `during` says where; the rates are what the load delivered from its start
   * to the stop (over `measured_s`), never compared with the rate asked.
   */
  readonly interrupted?: { signal: string; at: string; during: 'the idle gate' | 'the load start' | 'the gate under load' } | undefined;
}

const failing = (r: Results) => new Set(r.rules.filter((x) => x.outcome === 'fail').map((x) => x.id));

/**
 * Runs the gate idle, then under load, and writes DIR/conformance/under-load.{json,html}.
 * `runSuite` is the conformance runner (one SuiteRunner serves both runs).
 *
 * @example
 * const r = await gateUnderLoad({ plan: planAgainst(plan, session.loaded), rate: 30, reportDir, runSuite });
 * r.failed_only_under_load; // ['chat.close.success-true']
 */
export async function gateUnderLoad(options: {
  /** The load plan (src/load/plan.ts): the scenario, its target and the engine that holds the load. */
  plan: TargetedPlan;
  rate: number;
  reportDir: string;
  runSuite: () => Promise<Results>;
}): Promise<{ result: UnderLoadResult; idle: Results; underLoad: Results | undefined }> {
  const { scenario, loaded } = options.plan;
  const told: GateOptions = { scenario, loaded, rate: options.rate, reportDir: options.reportDir };
  const idle = await options.runSuite();
  const ctx = await prepareSteps(options.plan, join(options.reportDir, 'conformance', '.under-load'));
  const cutIdle = interruption();
  if (cutIdle) {
    const result = resultOf(told, ctx, idle, undefined, { iterations: 0, seconds: 0 }, { ...cutIdle, during: 'the idle gate' });
    await writeUnderLoad(told, ctx, result, '');
    return { result, idle, underLoad: undefined };
  }
  const hold = holdLoad(ctx, options.rate, await freePort());
  let underLoad: Results | undefined;
  let gate: { iterations: number; seconds: number } = { iterations: 0, seconds: 0 };
  let gateSpan: { from: number; to: number } | undefined;
  let during: 'the load start' | 'the gate under load' = 'the load start';
  let held = { iterations: 0, seconds: 0 };
  try {
    // The engine initialises its VUs first: the gate starts once iterations complete, and RAMP_S later.
    const deadline = Date.now() + START_TIMEOUT_S * 1000;
    while (((await hold.running()) ?? 0) === 0) {
      stopIfInterrupted();
      if (Date.now() > deadline) throw new EnvironmentError(`conformance: the ${scenario} load did not start within ${START_TIMEOUT_S} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, RAMP_S * 1000));
    stopIfInterrupted();
    const before = { n: await countOf(hold, scenario), t: Date.now() };
    during = 'the gate under load';
    gateSpan = { from: before.t, to: before.t };
    underLoad = await options.runSuite();
    gateSpan.to = Date.now();
    stopIfInterrupted();
    const short = MIN_MEASURE_S * 1000 - (Date.now() - before.t);
    if (short > 0) await new Promise((r) => setTimeout(r, short));
    const after = { n: await countOf(hold, scenario), t: Date.now() };
    gate = { iterations: after.n - before.n, seconds: (after.t - before.t) / 1000 };
    gateSpan = { from: before.t, to: after.t };
  } catch (e) {
    // Once a signal came, whatever broke off (the engine it stopped no longer answers) is the interruption.
    if (!(e instanceof Cut) && !interruption()) throw e;
  } finally {
    held = await hold.stop();
  }
  const cut = interruption();
  if (cut) {
    const result = resultOf(told, ctx, idle, underLoad, held, { ...cut, during });
    await writeUnderLoad(told, ctx, result, hold.samples, gateSpan);
    return { result, idle, underLoad };
  }
  // A gate "under load" with no load behind it would be a verdict on something that did not happen.
  if (gate.iterations <= 0) throw new EnvironmentError(`conformance: the ${scenario} load completed no iteration while the gate ran`);
  const result = resultOf(told, ctx, idle, underLoad, gate, undefined);
  await writeUnderLoad(told, ctx, result, hold.samples, gateSpan);
  return { result, idle, underLoad };
}

type GateOptions = { loaded: LoadedProfile; scenario: string; rate: number; reportDir: string };

/** under-load.json's content; an interrupted run has no verdict, so nothing in it is compared with the rate asked. */
function resultOf(
  o: GateOptions,
  ctx: StepContext,
  idle: Results,
  underLoad: Results | undefined,
  load: { iterations: number; seconds: number },
  cut: UnderLoadResult['interrupted'],
): UnderLoadResult {
  const achieved = load.seconds > 0 ? load.iterations / load.seconds : 0;
  const idleFailing = failing(idle);
  const loadFailing = cut || !underLoad ? new Set<string>() : failing(underLoad);
  return {
    tool_version: DIALTONE_VERSION,
    scenario: o.scenario,
    rate: o.rate,
    engine: engineId(ctx.engine),
    achieved_rate: achieved,
    measured_s: Math.round(load.seconds * 10) / 10,
    load_delivered: !cut && achieved >= DELIVERED_SHARE * o.rate,
    idle_gate: cut?.during === 'the idle gate' ? 'interrupted' : idle.gate,
    under_load_gate: cut ? (underLoad ? 'interrupted' : 'not run') : (underLoad as Results).gate,
    failed_only_under_load: [...loadFailing].filter((id) => !idleFailing.has(id)),
    failed_in_both: [...loadFailing].filter((id) => idleFailing.has(id)),
    ...(ctx.slos ? { slo_set: sloSetName(o.loaded.profile.name, ctx.slos) } : {}),
    ...(cut ? { interrupted: cut } : {}),
  };
}

/** Writes under-load.{json,html}; `samples` is the held load's samples file ('' when no load ran), removed once read. */
async function writeUnderLoad(
  o: GateOptions,
  ctx: StepContext,
  result: UnderLoadResult,
  samples: string,
  gateSpan?: { from: number; to: number },
): Promise<void> {
  const achieved = result.achieved_rate;
  const idle = { gate: result.idle_gate };
  const underLoad = { gate: result.under_load_gate };
  const thresholds = (ctx.slos ?? []).flatMap((e) => e.expressions.map((t) => ({ metric: e.key, expression: typeof t === 'string' ? t : t.threshold })));
  const { timeline, missing } = samples
    ? await timelineOfRun({ args: [], files: [samples], missing: undefined }, thresholds)
    : { timeline: undefined, missing: undefined };
  if (samples) rmSync(samples, { force: true });
  const t0 = timeline ? Date.parse(timeline.started_at) : 0;
  const spans = gateSpan ? [{ from: (gateSpan.from - t0) / 1000, to: (gateSpan.to - t0) / 1000, label: 'the gate ran under this load' }] : [];
  const overTime = await timelineSection(timeline, sloKeysOf(thresholds), missing, spans);
  const list = (ids: readonly string[]) =>
    ids.length ? `<ul>${ids.map((id) => `<li><code>${esc(id)}</code></li>`).join('')}</ul>` : '<p class="muted">none</p>';
  writeReportFiles(
    join(o.reportDir, 'conformance'),
    {
      'under-load.json': `${JSON.stringify(result, null, 2)}\n`,
      'under-load.html': page(
        'dialtone conformance under load',
        `<nav><a href="../index.html">← all reports</a><a href="index.html">the gate under load</a><a href="under-load.json">under-load.json</a></nav>
<h1>Conformance under load: ${esc(o.scenario)} at ${o.rate}/s</h1>
<p class="muted">engine ${esc(engineName(result.engine))}${result.slo_set ? ` · the load's SLOs: ${esc(result.slo_set)}` : ''}</p>
${
  result.interrupted
    ? interruptedNote(result)
    : `<p>The engine held ${achieved.toFixed(1)} iterations/s while the gate ran (measured over ${result.measured_s.toFixed(1)} s: the gate's run, and at least ${MIN_MEASURE_S} s)${
        result.load_delivered
          ? ''
          : ` <strong>(less than ${DELIVERED_SHARE * 100} % of the ${o.rate}/s asked: the load was not delivered, so the gate under load judged a ` +
            `lighter load)</strong>`
      }. Idle gate: ${esc(idle.gate)}; gate under load: ${esc(underLoad.gate)}.</p>`
}
<h2>Passed idle, failed under load</h2>${list(result.failed_only_under_load)}<h2>Failed in both</h2>${list(result.failed_in_both)}
${overTime}`,
      ),
    },
    ctx.secrets,
  );
}

/** The page's first lines for a run a stop signal ended: where, and what the load delivered until then. */
function interruptedNote(r: UnderLoadResult): string {
  const cut = r.interrupted as NonNullable<UnderLoadResult['interrupted']>;
  const load =
    r.measured_s > 0
      ? `The load delivered ${r.achieved_rate.toFixed(1)} iterations/s from its start to the stop (over ${r.measured_s.toFixed(1)} s), interrupted.`
      : 'No load had started.';
  return `<p><strong>Interrupted by ${esc(cut.signal)} at ${esc(cut.at)}, during ${esc(cut.during)}: no verdict.</strong> ${load} Idle gate: ${esc(r.idle_gate)}; gate under load: ${esc(r.under_load_gate)}. <a href="index.html">The report of the cases that finished</a> lists the rules that got none.</p>`;
}
