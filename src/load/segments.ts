import { join } from 'node:path';
import { workloadOf } from '../nightly/history.js';
import type { Verdict } from '../nightly/verdict.js';
import { secretEnv } from '../profile/load.js';
import { engineId } from './engine.js';
import { readSegment } from './merge.js';
import { mergeAndReport } from './merge-report.js';
import type { LoadResult } from './page.js';
import { planWith, type TargetedPlan } from './plan.js';
import { type RunOutput, runLoad } from './run-load.js';

/**
 * `dialtone load SCENARIO --segments N`: N engine processes side by side, each on its own execution
 * segment (DIR/load/SCENARIO/segments/I-of-N/), then merged from their histograms into
 * DIR/load/SCENARIO/, which gets the history, the verdict and the pages as a single run would.
 *
 * @example
 * await runSegments(plan, { reportDir }, 2);
 */
export async function runSegments(
  plan: TargetedPlan,
  out: RunOutput,
  count: number,
): Promise<{ exitCode: number; result: LoadResult; dir: string; verdict: Verdict }> {
  const dir = join(out.reportDir, 'load', plan.scenario);
  const started = Date.now();
  // The plan's engine was resolved once: every segment runs on the same engine.
  const { engine } = plan;
  const parts = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      runLoad(planWith(plan, { extras: { ...plan.extras, segment: { index: i + 1, count } } }), {
        ...out,
        reportDir: join(dir, 'segments', `${i + 1}-of-${count}`),
      }),
    ),
  );
  return mergeAndReport(
    parts.map((p) => readSegment(p.dir)),
    {
      scenario: plan.scenario,
      workloadName: plan.workload,
      workload: `${workloadOf(plan.workload, plan.overrides)} in ${count} segments`,
      target: plan.loaded.profile.name,
      reportDir: out.reportDir,
      history: plan.extras?.history,
      baselineTag: plan.extras?.baselineTag,
      secrets: Object.values(secretEnv(plan.loaded)),
      started,
      engine: engineId(engine),
    },
  );
}
