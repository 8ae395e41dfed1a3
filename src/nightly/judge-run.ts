import { baselineOf, type RunRecord } from './history.js';
import { BAND, judge, type Verdict } from './verdict.js';

/**
 * Judges a run against the runs recorded before it: the same workload on the same kind of engine (baselineOf), by
 * the band, the drift and the pinned baselines. `dialtone load`, `merge` and `verdict` all judge through here, so a
 * history judged again later gives the verdict the run got.
 *
 * @example
 * const history = readHistory('reports/load/chat-turns/history.jsonl');
 * judgeRun(history.slice(0, -1), history.at(-1)).status; // 'unchanged'
 */
export function judgeRun(earlier: readonly RunRecord[], tonight: RunRecord, judged = true): Verdict {
  const baseline = baselineOf(earlier, tonight);
  return judge(
    baseline.map((r) => r.metrics ?? {}),
    judged ? (tonight.metrics ?? {}) : {},
    BAND,
    [...baseline, tonight],
  );
}
