import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { durationSeconds } from '../core/duration.js';
import type { K6Summary } from '../core/summary.js';
import { EXIT, UsageError } from '../errors.js';
import { workloadOf } from '../nightly/history.js';
import type { Verdict } from '../nightly/verdict.js';
import { writeRunReport } from '../nightly/write-run.js';
import type { LoadedProfile } from '../profile/load.js';
import { secretEnv } from '../profile/load.js';
import { redact } from '../profile/redact.js';
import { LOAD_ENV, type LoadConfig, type WorkloadName } from './config.js';
import { dashboardEnv, wantsDashboard } from './dashboard.js';
import { exitWithDelivery, judgeDelivery } from './delivery.js';
import { type Engine, type EngineChoice, engineId, engineOfRun } from './engine.js';
import { HISTOGRAMS_FILE, k6ExtraArgs, type LoadExtras, RAW_FILE, segmentFiles } from './extras.js';
import { GeneratorWatch } from './generator-watch.js';
import { interruption } from './interrupt.js';
import { prepareRunKit } from './kit.js';
import { expectationsOf, type LoadResult } from './page.js';
import { histogramsOfRaw } from './raw-histograms.js';
import { checkScenario } from './scenarios.js';
import { startEngine } from './spawn-engine.js';
import { thresholdsOf } from './summary.js';
import { keepsSamples, TIMELINE_FILE, timelineOfRun, timelineSamples } from './timeline-file.js';
import { timelineOfHistogramFiles } from './timeline-series.js';
import { shapeDuration } from './workload.js';

export interface LoadRun {
  readonly root: string;
  readonly scenario: string;
  readonly profile: WorkloadName;
  readonly loaded: LoadedProfile;
  readonly reportDir: string;
  readonly allowLive?: boolean;
  readonly overrides?: LoadConfig['overrides'];
  /** --dashboard: export k6's web dashboard even on a run that pushes the limit (src/load/dashboard.ts). */
  readonly dashboard?: boolean | undefined;
  /** --max-start-lag: the p99 iteration start lag, ms, above which the generator is behind schedule (delivery.ts). */
  readonly maxStartLagMs?: number | undefined;
  /** Extra seconds past the scenario's own length before the run is stopped. */
  readonly graceSeconds?: number;
  /** k6 outputs, an execution segment, the history file: src/load/extras.ts. */
  readonly extras?: LoadExtras | undefined;
  /** The engine (resolved once for all segments), or the --engine choice (default: DIALTONE_ENGINE, then auto). */
  readonly engine?: Engine | EngineChoice | undefined;
  /** `--control`: the control run's verdict, read beside this run's on its page (src/nightly/control.ts). */
  readonly control?: Verdict | undefined;
}

/** Upper bound on a run's wall time per load profile: every loop is bounded in time. */
const MAX_SECONDS: Record<WorkloadName, number> = { smoke: 120, nightly: 900, capacity: 1200 };
/** Seconds a run with its own --duration may take past it: k6's start, the graceful stop, the summary. */
const DURATION_ALLOWANCE_S = 300;

/**
 * The wall-time bound of a run: its workload's, or a --duration's with room to start and stop, whichever is longer (a
 * 30-minute soak must not be cut at the nightly 15).
 *
 * @example
 * runLimitSeconds('nightly', '30m') // 2100
 */
export function runLimitSeconds(profile: WorkloadName, duration: string | undefined): number {
  const asked = duration === undefined ? undefined : durationSeconds(duration);
  return Math.max(MAX_SECONDS[profile], asked === undefined ? 0 : asked + DURATION_ALLOWANCE_S);
}

/**
 * A segment's histograms.json: the built-in engine wrote it; a k6 run's JSON output is folded into it. A raw file that
 * cannot be read (a run cut short) leaves none, and merge says so.
 */
async function keepHistograms(dir: string, summary: K6Summary, raw: string | undefined): Promise<void> {
  const file = join(dir, HISTOGRAMS_FILE);
  if (existsSync(file) || raw === undefined || !existsSync(raw)) return;
  try {
    writeFileSync(file, `${JSON.stringify(await histogramsOfRaw(raw, summary))}\n`);
  } catch {
    rmSync(file, { force: true });
  }
}

/**
 * Runs one scenario on its engine (the user's k6 or the built-in one) against a loaded profile and writes
 * DIR/load/SCENARIO/. Returns the engine's exit code (99 when a threshold failed, as k6), or 5 when the load was not
 * delivered.
 */
export async function runLoad(o: LoadRun): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  checkScenario(o.root, o.scenario);
  const p = o.loaded.profile;
  if (p.environment === 'live' && !o.allowLive) {
    throw new UsageError(`refusing a load run against the live environment of '${p.name}'; pass --allow-live to do it on purpose`);
  }
  const dir = join(o.reportDir, 'load', o.scenario);
  mkdirSync(dir, { recursive: true });
  const engine = engineOfRun(o);
  // What an earlier run in this folder left must not pass for this run's.
  for (const f of ['summary.json', 'dashboard.html', 'engine.log', TIMELINE_FILE, HISTOGRAMS_FILE, RAW_FILE]) rmSync(join(dir, f), { force: true });
  const work = join(dir, '.work');
  const segment = segmentFiles(o.extras, engine.kind, dir, work);
  const kit = await prepareRunKit({ root: o.root, engine, scenario: o.scenario, profile: o.profile, loaded: o.loaded, work, overrides: o.overrides });
  const { script, config } = kit;
  const env = secretEnv(o.loaded);
  const started = Date.now();
  const log = createWriteStream(join(dir, 'engine.log'));
  const secrets = Object.values(env);
  const watch = new GeneratorWatch();
  const limitS = runLimitSeconds(o.profile, shapeDuration(config.shape)) + (o.graceSeconds ?? 0);
  // The page's run over time is drawn from the run's own samples, kept where writing them costs the generator little.
  const wanted = keepsSamples({ dashboard: o.dashboard, atLimit: !wantsDashboard(o), seconds: durationSeconds(shapeDuration(config.shape) ?? '') });
  // The built-in engine's histograms draw the run over time of a segment without raw samples, and of a run that keeps
  // no samples (at the limit, or long): no sample is written for it.
  const fromHistograms = segment.histograms !== undefined && (o.extras?.segment ? segment.raw === undefined : !wanted);
  const samples = fromHistograms ? { args: [], files: [], missing: undefined } : timelineSamples({ wanted, work, segmentRaw: segment.raw });
  let stderrTail = '';
  const run = startEngine({
    engine,
    args: ['--no-color', '--summary-export', join(dir, 'summary.json'), ...k6ExtraArgs(o.extras, engine.kind, dir, work), ...samples.args, script],
    env: {
      ...process.env,
      ...env,
      ...kit.env,
      [LOAD_ENV]: JSON.stringify(config),
      K6_NO_USAGE_REPORT: 'true',
      ...dashboardEnv(o, join(dir, 'dashboard.html')),
    },
    output: (chunk, stream) => {
      const text = redact(chunk.toString('utf8'), secrets);
      if (stream === 'stderr') stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
      log.write(text);
      (stream === 'stdout' ? process.stdout : process.stderr).write(text);
    },
    limit: {
      seconds: limitS,
      signal: 'SIGINT',
      onLimit: () =>
        process.stderr.write(`dialtone: load: stopping ${engine.kind === 'k6' ? 'k6' : 'the engine'} at its time limit of ${limitS} s; the run is cut short\n`),
    },
  });
  watch.attach(run.child);
  run.child.on('error', (e) => process.stderr.write(`dialtone: load: could not start ${engine.command}: ${e.message}\n`));
  const k6Exit = await run.exited;
  const interrupted = run.interrupted() ?? interruption();
  await new Promise((r) => log.end(r));

  const summaryPath = join(dir, 'summary.json');
  const summary: K6Summary = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary) : { metrics: {} };
  // Load that was not delivered fails the gate too (exit 5), and the headline says so first.
  const delivery = judgeDelivery(summary, watch.stop(), o.maxStartLagMs, interrupted !== undefined);
  // An interrupted run is reported for what ran, never as a pass or a plain failure.
  const exitCode = interrupted ? EXIT.interrupted : exitWithDelivery(k6Exit, delivery);
  // Result, history, verdict, trend plots, JUnit and pages: src/nightly/write-run.ts (shared with `dialtone merge`).
  const workload = workloadOf(o.profile, o.overrides);
  if (o.extras?.segment) await keepHistograms(dir, summary, segment.raw);
  const { timeline, missing } = fromHistograms
    ? timelineOfHistogramFiles([join(dir, HISTOGRAMS_FILE)], thresholdsOf(summary))
    : await timelineOfRun(samples, thresholdsOf(summary));
  const { result, verdict } = await writeRunReport({
    ...o,
    target: p.name,
    workload,
    started,
    exitCode,
    summary,
    dir,
    secrets,
    history: o.extras?.history,
    baselineTag: o.extras?.baselineTag,
    record: !o.extras?.segment,
    tlsInsecure: kit.insecure,
    engine: engineId(engine),
    k6ExitCode: k6Exit,
    delivery,
    expectations: expectationsOf(p.name, config),
    interrupted,
    timeline,
    timelineMissing: missing,
    outputsDropped: outputsDropped(stderrTail),
  });
  rmSync(work, { recursive: true, force: true });
  return { exitCode, result, dir, verdict };
}

/** How much of the engine's last output is kept for the lines it writes at its end. */
const STDERR_TAIL = 1 << 16;

/**
 * The built-in engine's end lines for outputs that dropped samples (src/engine/metrics/outputs/delivery.ts writes them),
 * for the run's headline: a store out of reach never fails the run, so the page must say so.
 *
 * @example
 * outputsDropped('ERRO[0012] output influxdb (http://db:8086/write) dropped 812 of 812 samples; last error: HTTP 401\n');
 * // ['output influxdb (http://db:8086/write) dropped 812 of 812 samples; last error: HTTP 401']
 */
export function outputsDropped(stderr: string): string[] {
  return [...stderr.matchAll(/^\S+\s+(output \S+ \(.*?\) dropped \d+ of \d+ samples; last error: .*)$/gm)].map((m) => m[1] as string);
}
