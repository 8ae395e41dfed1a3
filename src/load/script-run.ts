// A user's own k6 script run through `dialtone load ./script.js`: on the user's k6 or the built-in engine, as a
// scenario runs, and reported the same way (the script's thresholds as its SLOs, the page, JUnit, the history and the
// verdict against earlier runs of the same script on the same kind of engine). The script keeps its own options and
// hosts: no profile, no workload, no target is given to it; its __ENV holds the environment, as `k6 run`'s does.
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { K6Summary } from '../core/summary.js';
import { EXIT, UsageError } from '../errors.js';
import type { Verdict } from '../nightly/verdict.js';
import { exitWithDelivery, judgeDelivery } from './delivery.js';
import { type Engine, engineId } from './engine.js';
import { HISTOGRAMS_FILE, k6ExtraArgs, type LoadExtras, RAW_FILE } from './extras.js';
import { writeRunReport } from './finish-run.js';
import { GeneratorWatch } from './generator-watch.js';
import { interruption } from './interrupt.js';
import type { LoadResult } from './page.js';
import { startEngine } from './spawn-engine.js';
import { thresholdsOf } from './summary.js';
import { keepsSamples, TIMELINE_FILE, timelineOfRun, timelineSamples } from './timeline-file.js';

/** k6's codes for a script that could not start: 104 invalid options, 107 a script error (/errext/exitcodes). */
const REFUSED = [104, 107];

export interface ScriptRun {
  /** The script's path as the user gave it. */
  readonly script: string;
  readonly reportDir: string;
  readonly engine: Engine;
  /** `--duration`: passed to the engine as k6's own flag (it replaces the script's scenarios, as k6 warns). */
  readonly duration?: string | undefined;
  readonly extras?: LoadExtras | undefined;
  readonly dashboard?: boolean | undefined;
  readonly maxStartLagMs?: number | undefined;
}

/** True when a `load` argument names a script file (or a k6 archive of one) rather than one of dialtone's scenarios. */
export function isScriptPath(arg: string): boolean {
  return /[/\\]/.test(arg) || /\.(m?js|cjs|ts|tar)$/.test(arg);
}

/** The report's name for a script: its file name (`quickstart.js`), never one of the scenarios' (they have no dot). */
export const scriptRunName = (script: string) => basename(script);

/**
 * Runs a k6 script on `engine` and writes DIR/load/<file name>/ as a scenario's run writes it. Returns the engine's
 * exit code (99 when a threshold failed), 5 when the load was not delivered, 105 when interrupted.
 *
 * @example
 * const { exitCode, dir } = await runScript({ script: './quickstart.js', reportDir: 'reports', engine });
 */
export async function runScript(asked: ScriptRun): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  const script = resolve(asked.script);
  const name = scriptRunName(script);
  const dir = join(asked.reportDir, 'load', name);
  mkdirSync(dir, { recursive: true });
  for (const f of ['summary.json', 'engine.log', TIMELINE_FILE, HISTOGRAMS_FILE, RAW_FILE]) rmSync(join(dir, f), { force: true });
  const work = join(dir, '.work');
  mkdirSync(work, { recursive: true });
  const samples = timelineSamples({ wanted: keepsSamples({ dashboard: asked.dashboard, atLimit: false, seconds: undefined }), work });
  const started = Date.now();
  const log = createWriteStream(join(dir, 'engine.log'));
  const watch = new GeneratorWatch();
  const run = startEngine({
    engine: asked.engine,
    args: [
      '--no-color',
      '--summary-export',
      join(dir, 'summary.json'),
      ...(asked.duration ? ['--duration', asked.duration] : []),
      ...k6ExtraArgs(asked.extras, asked.engine.kind, dir, work),
      ...samples.args,
      script,
    ],
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
    output: (chunk, stream) => {
      log.write(chunk);
      (stream === 'stdout' ? process.stdout : process.stderr).write(chunk);
    },
  });
  watch.attach(run.child);
  run.child.on('error', (e) => process.stderr.write(`dialtone: load: could not start ${asked.engine.command}: ${e.message}\n`));
  const k6Exit = await run.exited;
  const interrupted = run.interrupted() ?? interruption();
  await new Promise((r) => log.end(r));
  const summaryPath = join(dir, 'summary.json');
  // A script the engine refused before it ran (a module it lacks, a build error, bad options) is no run to record.
  if (!interrupted && !existsSync(summaryPath) && REFUSED.includes(k6Exit)) {
    rmSync(work, { recursive: true, force: true });
    throw new UsageError(`load: the engine refused ${name} before it ran (exit ${k6Exit}; its line above says why); nothing was recorded`);
  }
  const summary: K6Summary = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary) : { metrics: {} };
  const delivery = judgeDelivery(summary, watch.stop(), asked.maxStartLagMs);
  const exitCode = interrupted ? EXIT.interrupted : exitWithDelivery(k6Exit, delivery);
  const { timeline, missing } = await timelineOfRun(samples, thresholdsOf(summary));
  const { result, verdict } = await writeRunReport({
    scenario: name,
    workloadName: 'script',
    // One script, one workload: its own options; a --duration makes it another.
    workload: asked.duration ? `script --duration ${asked.duration}` : 'script',
    target: relative(process.cwd(), script) || script,
    engine: engineId(asked.engine),
    started,
    exitCode,
    summary,
    dir,
    reportDir: asked.reportDir,
    secrets: [],
    history: asked.extras?.history,
    baselineTag: asked.extras?.baselineTag,
    record: !asked.extras?.segment,
    k6ExitCode: k6Exit,
    delivery,
    interrupted,
    timeline,
    timelineMissing: missing,
  });
  rmSync(work, { recursive: true, force: true });
  return { exitCode, result, dir, verdict };
}
