import { join } from 'node:path';
import { workloadOf } from '../nightly/history.js';
import type { Verdict } from '../nightly/verdict.js';
import { secretEnv } from '../profile/load.js';
import { engineId, engineOfRun } from './engine.js';
import { readSegment } from './merge.js';
import { mergeAndReport } from './merge-report.js';
import type { LoadResult } from './page.js';
import { type LoadRun, runLoad } from './run.js';

/**
 * `dialtone load SCENARIO --segments N`: N engine processes side by side, each on its own execution
 * segment (DIR/load/SCENARIO/segments/I-of-N/), then merged from their histograms into
 * DIR/load/SCENARIO/, which gets the history, the verdict and the pages as a single run would.
 *
 * @example
 * await runSegments({ root, scenario: 'chat-turns', profile: 'smoke', loaded, reportDir }, 2);
 */
export async function runSegments(o: LoadRun, count: number): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  const dir = join(o.reportDir, 'load', o.scenario);
  const started = Date.now();
  const engine = engineOfRun(o); // resolved once: every segment runs on the same engine
  const parts = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      runLoad({ ...o, engine, reportDir: join(dir, 'segments', `${i + 1}-of-${count}`), extras: { ...o.extras, segment: { index: i + 1, count } } }),
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
      baselineTag: o.extras?.baselineTag,
      secrets: Object.values(secretEnv(o.loaded)),
      started,
      engine: engineId(engine),
    },
  );
}
