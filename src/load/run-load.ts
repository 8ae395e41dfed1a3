import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { K6Summary } from '../core/summary.js';
import { EXIT } from '../errors.js';
import { workloadOf } from '../nightly/history.js';
import type { Verdict } from '../nightly/verdict.js';
import { secretEnv } from '../profile/load.js';
import { redact } from '../profile/redact.js';
import { LOAD_ENV } from './config.js';
import { dashboardEnv } from './dashboard.js';
import { exitWithDelivery, judgeDelivery } from './delivery.js';
import { engineId } from './engine.js';
import { HISTOGRAMS_FILE, k6ExtraArgs, RAW_FILE, segmentFiles } from './extras.js';
import { writeRunReport } from './finish-run.js';
import { GeneratorWatch } from './generator-watch.js';
import { interruption } from './interrupt.js';
import { expectationsOf, type LoadResult } from './page.js';
import type { TargetedPlan } from './plan.js';
import { histogramsOfRaw } from './raw-histograms.js';
import { prepareRunKit } from './run-kit.js';
import { startEngine } from './spawn-engine.js';
import { thresholdsOf } from './summary.js';
import { TIMELINE_FILE, timelineOfRun, timelineSamples } from './timeline-file.js';
import { timelineOfHistogramFiles } from './timeline-series.js';

/** Where a planned run writes, and what it is read beside: what a plan does not decide. */
export interface RunOutput {
  readonly reportDir: string;
  /** `--control`: the control run's verdict, read beside this run's on its page (src/nightly/control.ts). */
  readonly control?: Verdict | undefined;
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
 * Runs a plan's scenario on its engine (the user's k6 or the built-in one) against its target and writes
 * DIR/load/SCENARIO/. Returns the engine's exit code (99 when a threshold failed, as k6), or 5 when the load was not
 * delivered.
 */
export async function runLoad(plan: TargetedPlan, out: RunOutput): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  const { engine, extras, loaded } = plan;
  const p = loaded.profile;
  const dir = join(out.reportDir, 'load', plan.scenario);
  mkdirSync(dir, { recursive: true });
  // What an earlier run in this folder left must not pass for this run's.
  for (const f of ['summary.json', 'dashboard.html', 'engine.log', TIMELINE_FILE, HISTOGRAMS_FILE, RAW_FILE]) rmSync(join(dir, f), { force: true });
  const work = join(dir, '.work');
  const segment = segmentFiles(extras, engine.kind, dir, work);
  const kit = await prepareRunKit(plan, work);
  const { script, config } = kit;
  const env = secretEnv(loaded);
  const started = Date.now();
  const log = createWriteStream(join(dir, 'engine.log'));
  const secrets = Object.values(env);
  const watch = new GeneratorWatch();
  const limitS = plan.limitSeconds;
  const choice = { workload: plan.workload, overrides: plan.overrides, dashboard: plan.dashboard };
  // Whether the run keeps its samples for the page's run over time: the plan's sample policy.
  const wanted = plan.keepsSamples;
  // The built-in engine's histograms draw the run over time of a segment without raw samples, and of a run that keeps
  // no samples (at the limit, or long): no sample is written for it.
  const fromHistograms = segment.histograms !== undefined && (extras?.segment ? segment.raw === undefined : !wanted);
  const samples = fromHistograms ? { args: [], files: [], missing: undefined } : timelineSamples({ wanted, work, segmentRaw: segment.raw });
  let stderrTail = '';
  const run = startEngine({
    engine,
    args: ['--no-color', '--summary-export', join(dir, 'summary.json'), ...k6ExtraArgs(extras, engine.kind, dir, work), ...samples.args, script],
    env: {
      ...process.env,
      ...env,
      ...kit.env,
      [LOAD_ENV]: JSON.stringify(config),
      K6_NO_USAGE_REPORT: 'true',
      ...dashboardEnv(choice, join(dir, 'dashboard.html')),
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
  const delivery = judgeDelivery(summary, watch.stop(), plan.maxStartLagMs, interrupted !== undefined);
  // An interrupted run is reported for what ran, never as a pass or a plain failure.
  const exitCode = interrupted ? EXIT.interrupted : exitWithDelivery(k6Exit, delivery);
  // Result, history, verdict, trend plots, JUnit and pages: src/load/finish-run.ts (shared with `dialtone merge`).
  const workload = workloadOf(plan.workload, plan.overrides);
  if (extras?.segment) await keepHistograms(dir, summary, segment.raw);
  const { timeline, missing } = fromHistograms
    ? timelineOfHistogramFiles([join(dir, HISTOGRAMS_FILE)], thresholdsOf(summary))
    : await timelineOfRun(samples, thresholdsOf(summary));
  const { result, verdict } = await writeRunReport({
    scenario: plan.scenario,
    workloadName: plan.workload,
    reportDir: out.reportDir,
    control: out.control,
    target: p.name,
    workload,
    started,
    exitCode,
    summary,
    dir,
    secrets,
    history: extras?.history,
    baselineTag: extras?.baselineTag,
    record: !extras?.segment,
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
