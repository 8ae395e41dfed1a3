import { type DefectId, Defects } from '../reference-target/defects.js';
import { startTarget } from '../reference-target/server.js';
import { type IssuedCredentials, issueCredentials } from '../reference-target/tenancy.js';
import type { DefectVerdict } from '../report/results.js';
import { SuiteRunner } from './run.js';

/**
 * Defects checked side by side, each lane with its own vitest and one target at a time. A defect's run is mostly
 * waiting (sockets, timers, a case's bounded wait for what a defect never sends), so lanes overlap the waits.
 */
export const SELFTEST_LANES = 3;

/**
 * The defect self-test: for each defect, start the reference target with it, run the cases of its
 * surface, and check that exactly the rules the defect breaks failed. Verdicts come back in the order of `ids`.
 *
 * @example
 * const verdicts = await runSelftest(root, ['chat-close-success-false'], undefined, { lanes: 1 });
 * verdicts[0]?.exact // true: exactly chat.close.success-true failed
 */
export async function runSelftest(
  root: string,
  ids: readonly DefectId[] = Object.keys(Defects) as DefectId[],
  onVerdict?: (v: DefectVerdict) => void,
  o: {
    lanes?: number;
    /** The credentials every defect's target takes: a reference target's own, so a runner serving it may run alongside. */
    credentials?: IssuedCredentials;
  } = {},
): Promise<DefectVerdict[]> {
  const lanes = o.lanes ?? SELFTEST_LANES;
  const verdicts = new Map<DefectId, DefectVerdict>();
  // The defects that break the most rules start first: each broken rule can cost a case its full wait.
  const queue = [...ids].sort((a, b) => Defects[b].breaks.length - Defects[a].breaks.length);
  // One set of credentials for every target: a runner serves profiles with one set of secret values.
  const credentials = o.credentials ?? issueCredentials();
  const lane = async (runner: SuiteRunner) => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const defect = Defects[id];
      const started = Date.now();
      const target = await startTarget({ defects: [id], credentials });
      try {
        const results = await runner.run(target.loaded, `${defect.surface}.*`);
        const failed = [...new Set(results.cases.filter((c) => c.outcome === 'fail').map((c) => c.rule))].sort();
        const breaks = [...defect.breaks].sort();
        const verdict: DefectVerdict = {
          id,
          surface: defect.surface,
          description: defect.description,
          breaks,
          failed_rules: failed,
          caught: breaks.every((b) => failed.includes(b)),
          exact: JSON.stringify(failed) === JSON.stringify(breaks),
          duration_ms: Date.now() - started,
        };
        verdicts.set(id, verdict);
        onVerdict?.(verdict);
      } finally {
        await target.close();
      }
    }
  };
  const runners = await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, ids.length)) }, () => SuiteRunner.create(root)));
  try {
    await Promise.all(runners.map(lane));
  } finally {
    await Promise.all(runners.map((r) => r.close()));
  }
  return ids.flatMap((id) => verdicts.get(id) ?? []);
}
