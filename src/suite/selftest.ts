import { type DefectId, Defects } from '../reference-target/defects.js';
import { type RunningTarget, startTarget } from '../reference-target/server.js';
import { type IssuedCredentials, issueCredentials } from '../reference-target/tenancy.js';
import type { CaseResult, DefectVerdict } from '../report/results.js';
import { SuiteRunner } from './run.js';

/**
 * Defects checked side by side, each lane with its own vitest and one batch of targets at a time. A defect's run is
 * mostly waiting (sockets, timers, a case's bounded wait for what a defect never sends), so lanes overlap the waits.
 */
// Three, so at most four runs go at once with the suite's own run or the mutation proof beside them, as long proven here:
// with four lanes one gate in six had a voice case miss its audio (2026-11-26).
export const SELFTEST_LANES = 3;

/**
 * The next batch off the queue: its first defect, and the first of each other surface after it. Each defect keeps a
 * target of its own and only its surface's cases meet it, so a batch judges each defect as a run of its own would; what
 * it saves is a vitest run (its worker and module graph, about 0.5 s of CPU, measured) per defect beyond the first.
 */
function nextBatch(queue: DefectId[]): DefectId[] {
  const batch: DefectId[] = [];
  for (const id of [...queue]) {
    if (batch.some((b) => Defects[b].surface === Defects[id].surface)) continue;
    batch.push(id);
    queue.splice(queue.indexOf(id), 1);
  }
  return batch;
}

/**
 * The defect self-test: for each defect, start the reference target with it, run the cases of its
 * surface, and check that exactly the rules the defect breaks failed. Defects of different surfaces run in one vitest
 * run, each surface's cases against its own defect's target. Verdicts come back in the order of `ids`.
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
    for (let batch = nextBatch(queue); batch.length > 0; batch = nextBatch(queue)) {
      const targets = await Promise.all(batch.map((id) => startTarget({ defects: [id], credentials })));
      try {
        const bySurface = Object.fromEntries(batch.map((id, i) => [Defects[id].surface, (targets[i] as RunningTarget).loaded]));
        const first = targets[0] as RunningTarget;
        const results = await runner.run(first.loaded, batch.map((id) => `${Defects[id].surface}.*`).join(','), { bySurface });
        for (const id of batch) {
          const verdict = verdictOf(id, results.cases);
          verdicts.set(id, verdict);
          onVerdict?.(verdict);
        }
      } finally {
        await Promise.all(targets.map((t) => t.close()));
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

/** A defect's verdict from the cases of its surface. */
function verdictOf(id: DefectId, all: readonly CaseResult[]): DefectVerdict {
  const defect = Defects[id];
  const cases = all.filter((c) => c.rule.startsWith(`${defect.surface}.`));
  const failed = [...new Set(cases.filter((c) => c.outcome === 'fail').map((c) => c.rule))].sort();
  const breaks = [...defect.breaks].sort();
  return {
    id,
    surface: defect.surface,
    description: defect.description,
    breaks,
    failed_rules: failed,
    caught: breaks.every((b) => failed.includes(b)),
    exact: JSON.stringify(failed) === JSON.stringify(breaks),
    duration_ms: cases.reduce((sum, c) => sum + c.duration_ms, 0),
  };
}
