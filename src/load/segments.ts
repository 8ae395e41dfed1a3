import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workloadOf } from '../nightly/history.js';
import type { Verdict } from '../nightly/verdict.js';
import { writeRunReport } from '../nightly/write-run.js';
import { secretEnv } from '../suite/context.js';
import { mergeSegments, readSegment, type SegmentFiles } from './merge.js';
import type { LoadResult } from './page.js';
import { type LoadRun, runLoad } from './run.js';

/**
 * `dialtone load SCENARIO --segments N`: N k6 processes side by side, each on its own execution
 * segment (DIR/load/SCENARIO/segments/I-of-N/), then merged from their raw samples into
 * DIR/load/SCENARIO/, which gets the history, the verdict and the pages as a single run would.
 *
 * @example
 * await runSegments({ root, scenario: 'chat-turns', profile: 'smoke', loaded, reportDir }, 2);
 */
export async function runSegments(o: LoadRun, count: number): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  const dir = join(o.reportDir, 'load', o.scenario);
  const started = Date.now();
  const parts = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      runLoad({ ...o, reportDir: join(dir, 'segments', `${i + 1}-of-${count}`), extras: { ...o.extras, segment: { index: i + 1, count } } }),
    ),
  );
  return mergeAndReport(
    parts.map((p) => readSegment(p.dir)),
    {
      scenario: o.scenario,
      profile: o.profile,
      workload: `${workloadOf(o.profile, o.overrides)} in ${count} segments`,
      target: o.loaded.profile.name,
      reportDir: o.reportDir,
      history: o.extras?.history,
      secrets: Object.values(secretEnv(o.loaded)),
      started,
    },
  );
}

/** What the merged report needs besides the segments: where it goes and what it is called. */
export interface MergeTarget {
  readonly scenario: string;
  readonly profile: string;
  readonly workload: string;
  readonly target: string;
  readonly reportDir: string;
  readonly history?: string | undefined;
  readonly secrets: readonly string[];
  readonly started: number;
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
  const summary = await mergeSegments(segs);
  const dir = join(t.reportDir, 'load', t.scenario);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const broken = segs.find((s) => s.result.k6_exit_code !== 0 && s.result.k6_exit_code !== 99);
  const failed = Object.values(summary.metrics).some((m) => Object.values(m.thresholds ?? {}).some(Boolean));
  const exitCode = broken?.result.k6_exit_code ?? (failed ? 99 : 0);
  const { result, verdict } = await writeRunReport({
    ...t,
    exitCode,
    summary,
    dir,
    record: true,
    durationMs: Math.max(...segs.map((s) => s.result.duration_ms)),
  });
  return { exitCode, result, dir, verdict };
}
