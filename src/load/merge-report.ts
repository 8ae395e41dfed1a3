import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineId } from '../core/engine-version.js';
import { EXIT } from '../errors.js';
import type { Verdict } from '../nightly/verdict.js';
import { writeRunReport } from './finish-run.js';
import { mergeSegments, type SegmentFiles } from './merge.js';
import type { LoadResult } from './page.js';
import { thresholdsOf } from './summary.js';
import { timelineOfRun } from './timeline-file.js';
import { timelineOfHistogramFiles } from './timeline-series.js';

/** What the merged report needs besides the segments: where it goes and what it is called. */
export interface MergeTarget {
  readonly scenario: string;
  /** The workload's name, as FinishedRun's. */
  readonly workloadName: string;
  readonly workload: string;
  readonly target: string;
  readonly reportDir: string;
  readonly history?: string | undefined;
  /** `--baseline-tag`: the merged run is recorded as a pinned baseline under this name. */
  readonly baselineTag?: string | undefined;
  readonly secrets: readonly string[];
  readonly started: number;
  /** The engine every segment ran on. */
  readonly engine: EngineId;
  /** `--exact`: every percentile from the segments' raw samples (kept with `load --raw-samples`), not their histograms. */
  readonly exact?: boolean | undefined;
}

/**
 * Merges segments into DIR/load/SCENARIO/ (summary.json, result.json, junit.xml, index.html, history and
 * verdict) and returns the exit code: a segment's own failure to run, else 99 when a merged threshold failed.
 *
 * @example
 * await mergeAndReport(['a/load/chat-turns', 'b/load/chat-turns'].map(readSegment), { scenario: 'chat-turns', … });
 */
export async function mergeAndReport(
  segs: readonly SegmentFiles[],
  t: MergeTarget,
): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  const summary = await mergeSegments(segs, { exact: t.exact === true });
  const dir = join(t.reportDir, 'load', t.scenario);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const broken = segs.find((s) => s.result.k6_exit_code !== 0 && s.result.k6_exit_code !== 99);
  const failed = Object.values(summary.metrics).some((m) => Object.values(m.thresholds ?? {}).some(Boolean));
  // A segment a stop signal cut short makes the merged run one too: reported, marked, never judged.
  const interrupted = segs.find((s) => s.result.interrupted)?.result.interrupted;
  const exitCode = interrupted ? EXIT.interrupted : (broken?.result.k6_exit_code ?? (failed ? EXIT.thresholds : EXIT.ok));
  // The run over time from every segment's histograms at once (or, when one has none, their samples): counts add up,
  // VUs of the segments add up.
  const hists = segs.flatMap((s) => (s.histograms ? [s.histograms] : []));
  const jsonRaw = segs.flatMap((s) => (s.raw && /\.json(\.gz)?$/.test(s.raw) ? [s.raw] : []));
  const { timeline, missing } =
    hists.length === segs.length
      ? timelineOfHistogramFiles(hists, thresholdsOf(summary))
      : await timelineOfRun(
          {
            args: [],
            files: jsonRaw,
            missing: jsonRaw.length ? undefined : 'the segments kept neither histograms with their intervals nor JSON samples (CSV carries whole seconds only)',
          },
          thresholdsOf(summary),
        );
  // Segments of one run were judged by one SLO set: the first one's says where each SLO came from, when all agree.
  const sets = new Set(segs.map((s) => JSON.stringify(s.result.expectations?.slos ?? null)));
  const expectations = sets.size === 1 ? segs[0]?.result.expectations : undefined;
  const { result, verdict } = await writeRunReport({
    ...t,
    expectations,
    timeline,
    timelineMissing: missing,
    exitCode,
    summary,
    dir,
    record: true,
    interrupted,
    durationMs: Math.max(...segs.map((s) => s.result.duration_ms)),
  });
  return { exitCode, result, dir, verdict };
}
