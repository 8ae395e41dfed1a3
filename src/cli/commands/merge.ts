import { relative, resolve } from 'node:path';
import { EXIT, UsageError } from '../../errors.js';
import { parseBaselineTag } from '../../load/extras.js';
import { failLines } from '../../load/summary.js';
import { defineCommand, parseCommand } from '../command.js';
import { BASELINE_TAG_FLAG, FAIL_ON_REGRESSION_FLAG, REPORT_DIR_FLAG } from '../flags.js';
import { startProgress } from '../progress.js';
import { usableReportDir } from '../report-dir.js';
import { exitWithVerdict } from './load-extras.js';

export const spec = defineCommand({
  name: 'merge',
  summary: "joins the segments of a distributed load run into one run's report, history and verdict",
  positionals: 'DIR...',
  description: `Merges the segments of one load run (each DIR a segment's report directory, made by
  'dialtone load SCENARIO --segment i/N') into DIR/load/SCENARIO/: percentiles from their histograms joined
  (histograms.json, within 1 % of the exact ones; a segment without one is read from its raw samples), counts summed,
  thresholds judged again, then the history, the verdict and the pages. The segments must have
  run on one kind of engine (k6 or the built-in one); the merged report names it.`,
  flags: {
    'report-dir': REPORT_DIR_FLAG,
    history: { type: 'string', value: 'FILE', help: 'reads and appends the run history there.', defaultText: 'DIR/load/SCENARIO/history.jsonl' },
    'fail-on-regression': FAIL_ON_REGRESSION_FLAG,
    'baseline-tag': { ...BASELINE_TAG_FLAG, help: "records the merged run as a pinned baseline, as 'dialtone load' does." },
    exact: {
      type: 'boolean',
      help: "merges every percentile exactly from the segments' raw samples (kept with 'dialtone load --raw-samples') instead of their histograms; refused when a segment kept none.",
    },
  },
  exits: {
    [EXIT.ok]: 'every merged threshold held',
    [EXIT.regressed]: 'a regression, under --fail-on-regression',
    [EXIT.thresholds]: 'a merged threshold failed',
  },
});

/** Merges segment directories into one run's report. */
export async function merge(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(spec, argv);
  const baselineTag = values['baseline-tag'] === undefined ? undefined : parseBaselineTag(values['baseline-tag'], 'merge');
  if (!positionals.length) throw new UsageError('merge: name the segment directories, e.g. dialtone merge m1/load/chat-turns m2/load/chat-turns');
  const [{ readSegment }, { mergeAndReport }] = await Promise.all([import('../../load/merge.js'), import('../../load/merge-report.js')]);
  const reading = startProgress('merge: segments read', positionals.length);
  const segs = positionals.map((d) => {
    const seg = readSegment(resolve(d));
    reading.tick();
    return seg;
  });
  reading.end();
  const rawless = values.exact ? segs.find((s) => s.raw === undefined) : undefined;
  if (rawless) throw new UsageError(`merge: --exact: ${rawless.dir} kept no raw samples; run its segment with --raw-samples`);
  const first = segs[0]?.result;
  const other = segs.find((s) => s.result.scenario !== first?.scenario || s.result.workload !== first?.workload);
  if (!first || other)
    throw new UsageError(
      `merge: ${other?.dir}: a segment of '${other?.result.scenario}' (${other?.result.workload}), not of '${first?.scenario}' (${first?.workload})`,
    );
  // Samples of k6 and of the built-in engine are not one run: a segment without an engine named ran before there was a
  // choice, on k6.
  const engines = segs.map((s) => s.result.engine ?? { kind: 'k6' as const, version: 'k6 (version not recorded)' });
  const otherEngine = segs.find((_, i) => engines[i]?.kind !== engines[0]?.kind);
  if (otherEngine)
    throw new UsageError(
      `merge: ${otherEngine.dir}: a segment run on ${otherEngine.result.engine?.kind ?? 'k6'}, the others on ${engines[0]?.kind}: merge segments of one engine`,
    );
  const engine = { kind: engines[0]?.kind ?? 'k6', version: [...new Set(engines.map((e) => e.version))].join(', ') };
  const reportDir = usableReportDir(values['report-dir']);
  const out = resolve(reportDir, 'load', first.scenario);
  if (segs.some((s) => s.dir === out)) throw new UsageError(`merge: the merged report would overwrite the segment in ${out}; give another --report-dir`);
  const merging = startProgress('merge: samples merged, thresholds judged, pages written', undefined);
  const { exitCode, result, dir, verdict } = await mergeAndReport(segs, {
    scenario: first.scenario,
    workloadName: first.profile,
    workload: `${first.workload ?? first.profile} in ${segs.length} segments`,
    target: first.target,
    reportDir,
    history: values.history,
    baselineTag,
    secrets: [],
    started: Math.min(...segs.map((s) => Date.parse(s.result.started_at))),
    engine,
    exact: values.exact,
  }).finally(() => merging.end());
  const { verdictLines } = await import('../../nightly/verdict.js');
  console.log(`merge ${first.scenario}: ${segs.length} segments, ${result.passed ? 'thresholds held' : `threshold failed (exit ${exitCode})`}`);
  for (const line of result.headline) console.log(`  ${line}`);
  for (const line of failLines(result.thresholds)) console.log(`  ${line}`);
  for (const line of verdictLines(verdict)) console.log(line);
  console.log(`report: ${relative(process.cwd(), resolve(dir, 'index.html'))}`);
  return exitWithVerdict(exitCode, verdict, values['fail-on-regression'] ?? false);
}
