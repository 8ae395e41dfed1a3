import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workloadOf } from '../nightly/history.js';
import type { Verdict } from '../nightly/verdict.js';
import { writeRunReport } from '../nightly/write-run.js';
import { secretEnv } from '../suite/context.js';
import { mergeSegments, readSegment } from './merge.js';
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
  const segs = parts.map((p) => readSegment(p.dir));
  const summary = await mergeSegments(segs);
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return mergedReport(
    o,
    segs.map((s) => s.result),
    summary,
    started,
    dir,
  );
}

/** Writes the merged run's report and returns the exit code: a segment's failure to run, else 99 for a failed threshold. */
async function mergedReport(o: LoadRun, results: readonly LoadResult[], summary: Awaited<ReturnType<typeof mergeSegments>>, started: number, dir: string) {
  const broken = results.find((r) => r.k6_exit_code !== 0 && r.k6_exit_code !== 99);
  const failed = Object.values(summary.metrics).some((m) => Object.values(m.thresholds ?? {}).some(Boolean));
  const exitCode = broken?.k6_exit_code ?? (failed ? 99 : 0);
  const { result, verdict } = await writeRunReport({
    scenario: o.scenario,
    profile: o.profile,
    workload: `${workloadOf(o.profile, o.overrides)} in ${results.length} segments`,
    target: o.loaded.profile.name,
    started,
    exitCode,
    summary,
    dir,
    reportDir: o.reportDir,
    secrets: Object.values(secretEnv(o.loaded)),
    history: o.extras?.history,
    record: true,
  });
  return { exitCode, result, dir, verdict };
}
