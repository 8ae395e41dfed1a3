import { type DefectId, Defects } from '../reference-target/defects.js';
import { type RunningTarget, startTarget } from '../reference-target/server.js';
import { type IssuedCredentials, issueCredentials } from '../reference-target/tenancy.js';
import type { CaseResult, DefectVerdict } from '../report/results.js';
import { SuiteRunner } from './run.js';

/**
 * Defects checked side by side, each lane with its own vitest and one batch of targets at a time. A defect's run is
 * mostly waiting (sockets, timers, a case's bounded wait for what a defect never sends), so lanes overlap the waits.
 */
// Three, so at most four runs go at once with the suite's own run or the mutation proof beside them: with four lanes
// beside them a voice case could miss its audio. A fourth lane joins once the suite and the proof have ended
// (`oneMoreLaneAfter`), which keeps the four.
export const SELFTEST_LANES = 3;

/**
 * The next batch off the queue: its first defect, and the first of each other surface after it. Each defect keeps a
 * target of its own and only its surface's cases meet it, so a batch judges each defect as a run of its own would; what
 * it saves is a vitest run (its worker and module graph) per defect beyond the first.
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
  options: {
    lanes?: number;
    /** The credentials every defect's target takes: a reference target's own, so a runner serving it may run alongside. */
    credentials?: IssuedCredentials;
    /** One more lane takes defects off the queue once this settles (the run that ran beside the lanes has ended). */
    oneMoreLaneAfter?: Promise<unknown>;
  } = {},
): Promise<DefectVerdict[]> {
  const lanes = options.lanes ?? SELFTEST_LANES;
  const verdicts = new Map<DefectId, DefectVerdict>();
  // The defects that break the most rules start first: each broken rule can cost a case its full wait.
  const queue = [...ids].sort((a, b) => Defects[b].breaks.length - Defects[a].breaks.length);
  // One set of credentials for every target: a runner serves profiles with one set of secret values.
  const credentials = options.credentials ?? issueCredentials();
  // Runs one batch on `runner` and returns its cases, each surface's against its own defect's target.
  const runBatch = async (runner: SuiteRunner, batch: DefectId[]): Promise<readonly CaseResult[]> => {
    const targets = await Promise.all(batch.map((id) => startTarget({ defects: [id], credentials })));
    try {
      const bySurface = Object.fromEntries(batch.map((id, i) => [Defects[id].surface, (targets[i] as RunningTarget).loaded]));
      const first = targets[0] as RunningTarget;
      const results = await runner.run(first.loaded, batch.map((id) => `${Defects[id].surface}.*`).join(','), { bySurface });
      return results.cases;
    } finally {
      await Promise.all(targets.map((t) => t.close()));
    }
  };
  const settle = (v: DefectVerdict) => {
    verdicts.set(v.id as DefectId, v);
    onVerdict?.(v);
  };
  const again: DefectVerdict[] = [];
  const lane = async (runner: SuiteRunner) => {
    for (let batch = nextBatch(queue); batch.length > 0; batch = nextBatch(queue)) {
      const cases = await runBatch(runner, batch);
      for (const v of batch.map((id) => verdictOf(id, cases))) {
        if (v.caught && !v.exact) again.push(v);
        else settle(v);
      }
    }
  };
  const runners = await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, ids.length)) }, () => SuiteRunner.create(root)));
  let closing = false;
  // The lane that joins late, only while defects wait in the queue (a self-test nearly done starts no vitest for it). It
  // never holds the self-test up: once the other lanes have emptied the queue it is waited for only if it took a batch.
  let late: Promise<void> = Promise.resolve();
  const joinLate = async () => {
    const runner = await SuiteRunner.create(root);
    if (closing) return runner.close();
    runners.push(runner);
    await lane(runner);
  };
  options.oneMoreLaneAfter?.then(
    () => {
      if (closing || queue.length === 0) return;
      late = joinLate();
      late.catch(() => {}); // awaited below; this only keeps a failure meanwhile from going unhandled
    },
    () => {},
  );
  try {
    await Promise.all(runners.map(lane));
    await late;
    const alone = runners[0] as SuiteRunner;
    for (const v of await confirmAlone(again, (id) => runBatch(alone, [id]))) settle(v);
  } finally {
    closing = true;
    await Promise.all(runners.map((r) => r.close()));
  }
  return ids.flatMap((id) => verdicts.get(id) ?? []);
}

/**
 * Runs again, one at a time, each defect that was caught with other rules failing beside it; the verdict is the second
 * run's. A rule that failed beside the others holds only if every case of it passes (or is observed) in the run by
 * itself: then it is kept as `beside_others` with its detail. One that fails again stands, and so does one the second
 * run did not check (skipped, or not run): it cannot be said to have held. A defect that was not caught is never run
 * again (only caught-but-not-exact verdicts belong here): a catch must not depend on a second try.
 *
 * @example
 * const [v] = await confirmAlone([firstVerdict], (id) => runAlone(id));
 * v.exact // true when the other rules held the second time; v.beside_others says what failed the first
 */
export async function confirmAlone(first: readonly DefectVerdict[], rerun: (id: DefectId) => Promise<readonly CaseResult[]>): Promise<DefectVerdict[]> {
  const out: DefectVerdict[] = [];
  for (const v of first) {
    if (!v.caught || v.exact) throw new Error(`defect ${v.id}: only a verdict caught with other rules failing is run again`);
    const cases = await rerun(v.id as DefectId);
    const alone = verdictOf(v.id as DefectId, cases);
    const held = (rule: string) => {
      const mine = cases.filter((c) => c.rule === rule);
      return mine.length > 0 && mine.every((c) => c.outcome === 'pass' || c.outcome === 'observed');
    };
    const earlier = (v.unexpected ?? []).filter((u) => !alone.failed_rules.includes(u.rule));
    const unchecked = earlier.filter((u) => !held(u.rule)).map((u) => ({ rule: u.rule, detail: `${u.detail} (not checked again by itself)` }));
    const failed = [...new Set([...alone.failed_rules, ...unchecked.map((u) => u.rule)])].sort();
    const unexpected = [...(alone.unexpected ?? []), ...unchecked];
    out.push({
      ...alone,
      failed_rules: failed,
      exact: JSON.stringify(failed) === JSON.stringify(alone.breaks),
      ...(unexpected.length > 0 ? { unexpected } : {}),
      beside_others: earlier.filter((u) => held(u.rule)),
    });
  }
  return out;
}

/**
 * A defect's verdict from the cases of its surface; a failure it does not explain keeps its case's detail.
 *
 * @example
 * verdictOf('chat-close-success-false', results.cases).unexpected // undefined when only chat.close.success-true failed
 */
export function verdictOf(id: DefectId, all: readonly CaseResult[]): DefectVerdict {
  const defect = Defects[id];
  const cases = all.filter((c) => c.rule.startsWith(`${defect.surface}.`));
  const failed = [...new Set(cases.filter((c) => c.outcome === 'fail').map((c) => c.rule))].sort();
  const breaks = [...defect.breaks].sort();
  const unexpected = cases.filter((c) => c.outcome === 'fail' && !(breaks as string[]).includes(c.rule)).map((c) => ({ rule: c.rule, detail: c.detail }));
  return {
    id,
    surface: defect.surface,
    description: defect.description,
    breaks,
    failed_rules: failed,
    caught: breaks.every((b) => failed.includes(b)),
    exact: JSON.stringify(failed) === JSON.stringify(breaks),
    ...(unexpected.length > 0 ? { unexpected } : {}),
    duration_ms: cases.reduce((sum, c) => sum + c.duration_ms, 0),
  };
}
