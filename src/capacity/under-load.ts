// The conformance gate under load: the suite idle, then again while a load scenario holds the target
// at a constant arrival rate; the report lists the rules that passed idle but failed under load.
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { EnvironmentError, UsageError } from '../errors.js';
import { type Engine, type EngineChoice, type EngineId, engineId, engineName } from '../load/engine.js';
import { interruption } from '../load/interrupt.js';
import { sloSetName } from '../load/slos.js';
import { startEngine } from '../load/spawn-engine.js';
import { type K6Summary, stat } from '../load/summary.js';
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
 * reference target) a batch either side moves the rate by 10 %: 35.96/s of 40 asked, "not delivered" (2026-11-27).
 */
export const MIN_MEASURE_S = 8;

/** Parses `SCENARIO@RATE` (iterations per second). */
export function parseUnderLoad(v: string): { scenario: string; rate: number } {
  const m = /^([a-z0-9-]+)@(\d+(?:\.\d+)?)$/.exec(v);
  if (!m || !(Number(m[2]) > 0)) throw new UsageError(`conformance: --under-load must look like SCENARIO@RATE, e.g. chat-turns@30, got '${v}'`);
  return { scenario: m[1] as string, rate: Number(m[2]) };
}

/** A stop signal ends the gate under load where it is: its load is stopped, and it gives no verdict. */
function stopIfInterrupted(): void {
  const cut = interruption();
  if (cut) throw new Error(`interrupted by ${cut.signal}`);
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
}

const failing = (r: Results) => new Set(r.rules.filter((x) => x.outcome === 'fail').map((x) => x.id));

/**
 * Runs the gate idle, then under load, and writes DIR/conformance/under-load.{json,html}.
 * `runSuite` is the conformance runner (one SuiteRunner serves both runs).
 *
 * @example
 * const r = await gateUnderLoad({ root, loaded, scenario: 'chat-turns', rate: 30, reportDir, runSuite });
 * r.failed_only_under_load; // ['chat.close.success-true']
 */
export async function gateUnderLoad(o: {
  root: string;
  loaded: LoadedProfile;
  scenario: string;
  rate: number;
  reportDir: string;
  runSuite: () => Promise<Results>;
  /** The engine, or the --engine choice: the user's k6 or the built-in engine (default: DIALTONE_ENGINE, then auto). */
  engine?: Engine | EngineChoice | undefined;
}): Promise<{ result: UnderLoadResult; idle: Results; underLoad: Results }> {
  const idle = await o.runSuite();
  stopIfInterrupted();
  const ctx = await prepareSteps(o.root, o.scenario, o.loaded, join(o.reportDir, 'conformance', '.under-load'), false, o.engine);
  const hold = holdLoad(ctx, o.rate, await freePort());
  let underLoad: Results;
  let gate: { iterations: number; seconds: number };
  let gateSpan: { from: number; to: number } | undefined;
  try {
    // The engine initialises its VUs first: the gate starts once iterations complete, and RAMP_S later.
    const deadline = Date.now() + START_TIMEOUT_S * 1000;
    while (((await hold.running()) ?? 0) === 0) {
      stopIfInterrupted();
      if (Date.now() > deadline) throw new EnvironmentError(`conformance: the ${o.scenario} load did not start within ${START_TIMEOUT_S} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, RAMP_S * 1000));
    stopIfInterrupted();
    const before = { n: await countOf(hold, o.scenario), t: Date.now() };
    underLoad = await o.runSuite();
    stopIfInterrupted();
    const short = MIN_MEASURE_S * 1000 - (Date.now() - before.t);
    if (short > 0) await new Promise((r) => setTimeout(r, short));
    const after = { n: await countOf(hold, o.scenario), t: Date.now() };
    gate = { iterations: after.n - before.n, seconds: (after.t - before.t) / 1000 };
    gateSpan = { from: before.t, to: after.t };
  } finally {
    await hold.stop();
  }
  // A gate "under load" with no load behind it would be a verdict on something that did not happen.
  const achieved = gate.iterations / Math.max(0.001, gate.seconds);
  if (gate.iterations <= 0) throw new EnvironmentError(`conformance: the ${o.scenario} load completed no iteration while the gate ran`);
  const idleFailing = failing(idle);
  const loadFailing = failing(underLoad);
  const result: UnderLoadResult = {
    tool_version: DIALTONE_VERSION,
    scenario: o.scenario,
    rate: o.rate,
    engine: engineId(ctx.engine),
    achieved_rate: achieved,
    measured_s: Math.round(gate.seconds * 10) / 10,
    load_delivered: achieved >= DELIVERED_SHARE * o.rate,
    idle_gate: idle.gate,
    under_load_gate: underLoad.gate,
    failed_only_under_load: [...loadFailing].filter((id) => !idleFailing.has(id)),
    failed_in_both: [...loadFailing].filter((id) => idleFailing.has(id)),
    ...(ctx.slos ? { slo_set: sloSetName(o.loaded.profile.name, ctx.slos) } : {}),
  };
  const thresholds = (ctx.slos ?? []).flatMap((e) => e.expressions.map((t) => ({ metric: e.key, expression: typeof t === 'string' ? t : t.threshold })));
  const { timeline, missing } = await timelineOfRun({ args: [], files: [hold.samples], missing: undefined }, thresholds);
  rmSync(hold.samples, { force: true });
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
<p>The engine held ${achieved.toFixed(1)} iterations/s while the gate ran (measured over ${result.measured_s.toFixed(1)} s: the gate's run, and at least ${MIN_MEASURE_S} s)${
          result.load_delivered
            ? ''
            : ` <strong>(less than ${DELIVERED_SHARE * 100} % of the ${o.rate}/s asked: the load was not delivered, so the gate under load judged a lighter load)</strong>`
        }. Idle gate: ${esc(idle.gate)}; gate under load: ${esc(underLoad.gate)}.</p>
<h2>Passed idle, failed under load</h2>${list(result.failed_only_under_load)}<h2>Failed in both</h2>${list(result.failed_in_both)}
${overTime}`,
      ),
    },
    ctx.secrets,
  );
  return { result, idle, underLoad };
}
