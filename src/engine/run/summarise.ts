// The run's end: the summary export, the outputs and the REST API closed, the end-of-test summary (or the script's
// handleSummary), and k6's exit code.
import { writeFile } from 'node:fs/promises';
import { droppedLine } from '../metrics/outputs/delivery.js';
import { handleSummaryData } from '../metrics/summary-data.js';
import { writeSummaryExport } from '../metrics/summary-export.js';
import { textSummary } from '../metrics/text-summary.js';
import type { ThresholdVerdict } from '../metrics/thresholds.js';
import { type Failures, notRunAsWritten } from '../ran-as-written.js';
import { redactor } from '../secrets.js';
import type { Vu } from '../vu.js';
import type { RunContext } from './context.js';
import { EXIT } from './exit-codes.js';
import type { Initialised } from './init.js';
import { written } from './io.js';
import type { RunPlan } from './plan.js';
import type { Served } from './serve.js';

/**
 * Writes what a run writes at its end, the thresholds judged once more: the summary export and handleSummary or the
 * text summary (unless --summary-mode=disabled, v1's --no-summary), the outputs and the REST API closed.
 *
 * @example
 * const verdicts = await writeResults(run, init, plan, served);
 */
export async function writeResults(run: RunContext, init: Initialised, plan: RunPlan, served: Served): Promise<readonly ThresholdVerdict[]> {
  const { args } = run;
  const { store, trendStats } = plan;
  const verdicts = store.judge();
  // The secrets of --secret-source are redacted from the files the run writes as from its lines (a check named with one).
  const redact = redactor(run.secrets);
  if (args.summaryExport && args.summaryMode !== 'disabled')
    await writeSummaryExport(written(run.io, args.summaryExport), store, { summaryTrendStats: trendStats, verdicts }, redact);
  await Promise.all(served.outputs.map((o) => o.close()));
  // An output that could not reach its server never fails the run, as in k6; its end says what it dropped.
  for (const o of served.outputs) {
    const line = o.delivery ? droppedLine(o.delivery()) : undefined;
    if (line) run.log.write('error', line);
  }
  await served.rest?.close();
  served.rest = undefined;
  if (args.summaryMode !== 'disabled') await endOfTestSummary(run, init.vu0, plan);
  return verdicts;
}

/** handleSummary(data) when the script exports one (its files replace the default summary), else the text summary. */
async function endOfTestSummary(run: RunContext, vu0: Vu, plan: RunPlan): Promise<void> {
  const { io } = run;
  const { store, trendStats } = plan;
  const handle = vu0.exports.handleSummary;
  if (typeof handle === 'function') {
    const tty = { stdout: io.stdout.isTTY === true, stderr: io.stderr.isTTY === true };
    const out = (await handle(handleSummaryData(store, trendStats, tty))) as Record<string, string | ArrayBuffer> | undefined;
    for (const [where, content] of Object.entries(out ?? {})) {
      const text = typeof content === 'string' ? content : Buffer.from(content);
      if (where === 'stdout') io.stdout.write(text);
      else if (where === 'stderr') io.stderr.write(text);
      else await writeFile(written(io, where), typeof text === 'string' ? redactor(run.secrets)(text) : text);
    }
    return;
  }
  io.stdout.write(textSummary(store, { summaryTrendStats: trendStats, noColor: run.args.noColor || !io.stdout.isTTY }));
}

/**
 * k6's exit code for how the run ended, with the line that says why: a crash (107), a stop request (105), an abort
 * (108), failed thresholds (99), a test that did not run as written (107), exec.test.fail() (110), else 0.
 *
 * @example
 * return exitCode(run, init, plan, verdicts, failures);
 */
export function exitCode(run: RunContext, init: Initialised, plan: RunPlan, verdicts: readonly ThresholdVerdict[], failures: Failures): number {
  const { outcome, log } = run;
  // A worker whose VU's init code called exec.test.abort() crashes on it: the abort is what happened (108).
  if (outcome.crash && !outcome.aborted) return log.fatal(EXIT.scriptException, `the run stopped: ${outcome.crash}`);
  if (outcome.signal) return EXIT.externalAbort;
  const ran = { iterations: plan.store.aggregate('iterations', 'count') ?? 0, sent: plan.answered() };
  const unfit = outcome.aborted ? undefined : notRunAsWritten(ran, failures, init.sends);
  if (unfit) log.write('error', `the test did not run as written: ${unfit}`);
  if (outcome.aborted) return log.fatal(EXIT.scriptAborted, `test aborted: ${outcome.aborted}`);
  if (verdicts.some((v) => !v.ok)) {
    log.write('error', `thresholds on metrics '${[...new Set(verdicts.filter((v) => !v.ok).map((v) => v.key))].join(', ')}' have been crossed`);
    return EXIT.thresholds;
  }
  if (unfit) return EXIT.scriptException;
  if (outcome.failed) return log.fatal(EXIT.scriptFailed, `test failed: ${outcome.failed}`);
  return EXIT.ok;
}
