// A capacity search's history: one line per search, so a release that lowers capacity gets a verdict, as a nightly
// load run does. Only a figure the target set is judged: a search the load generator limited found no capacity.
import { z } from 'zod';
import { appendHistory, readJsonLines } from '../nightly/history.js';
import type { CapacityResult, CapacityVerdict } from './result.js';

export type { CapacityStatus, CapacityVerdict } from './result.js';

/** One search, as its history keeps it. */
export const CapacityRecord = z.object({
  tool_version: z.string().optional(),
  scenario: z.string(),
  unit: z.string(),
  target: z.string(),
  engine: z.object({ kind: z.enum(['k6', 'builtin']), version: z.string() }),
  started_at: z.string(),
  max_sustainable_rate: z.number().nullable(),
  limited_by: z.string(),
  stopped: z.string(),
  precision: z.number(),
  /** A closed-model search: messages a second per socket; absent for an arrival rate. Searches of one model compare. */
  message_rate: z.number().optional(),
  /** A search that played a traffic model: `learned from FILE`; absent for the scenario's own iteration. Searches of one workload compare. */
  workload: z.string().optional(),
});
export type CapacityRecord = z.infer<typeof CapacityRecord>;

/** How many earlier comparable searches tonight's is judged against, and the least move that counts. */
export const CAPACITY_BAND = { baseline: 5, minBaseline: 1, floor: 0.1 } as const;

/**
 * The line a search adds to its history.
 *
 * @example
 * capacityRecord(result).max_sustainable_rate; // 4.5
 */
export function capacityRecord(r: CapacityResult): CapacityRecord {
  return {
    tool_version: r.tool_version,
    scenario: r.scenario,
    unit: r.unit,
    target: r.target,
    engine: r.engine,
    started_at: r.started_at,
    max_sustainable_rate: r.analysis.max_sustainable_rate,
    limited_by: r.analysis.limited_by,
    stopped: r.stopped,
    precision: r.search.precision,
    ...(r.model ? { message_rate: r.model.message_rate_per_socket } : {}),
    ...(r.workload ? { workload: `learned from ${r.workload.file}` } : {}),
  };
}

/** The searches recorded in a history file, oldest first; a line that is not one is skipped. */
export const readCapacityHistory = (path: string): CapacityRecord[] => readJsonLines(path, CapacityRecord);

export const appendCapacityHistory = (path: string, r: CapacityRecord): void => appendHistory(path, JSON.stringify(r));

/** A figure the target set: the search completed and neither the generator nor a ceiling stopped it. */
const judgeable = (r: CapacityRecord) => r.max_sustainable_rate !== null && r.limited_by === 'target' && (r.stopped === 'refined' || r.stopped === 'max-rate');

/**
 * Tonight's capacity against the median of the last comparable searches (same scenario, target, kind of engine, model and workload):
 * regressed when lower by more than the floor (10 %, or the search's precision when coarser: a smaller move is inside
 * what the search can tell apart), improved when higher by as much.
 *
 * @example
 * judgeCapacity(readCapacityHistory('history.jsonl'), capacityRecord(result)).status; // 'regressed'
 */
export function judgeCapacity(earlier: readonly CapacityRecord[], tonight: CapacityRecord): CapacityVerdict {
  const floor = Math.max(CAPACITY_BAND.floor, tonight.precision);
  const rate = tonight.max_sustainable_rate;
  if (!judgeable(tonight))
    return {
      status: 'not judged',
      rate,
      runs: 0,
      floor,
      reason: `the search found no capacity of the target's (limited by ${tonight.limited_by}, ${tonight.stopped})`,
    };
  const same = earlier
    .filter(
      (r) =>
        r.scenario === tonight.scenario &&
        r.target === tonight.target &&
        r.engine.kind === tonight.engine.kind &&
        r.message_rate === tonight.message_rate &&
        r.workload === tonight.workload &&
        judgeable(r),
    )
    .slice(-CAPACITY_BAND.baseline);
  if (same.length < CAPACITY_BAND.minBaseline) return { status: 'no baseline', rate, runs: 0, floor };
  const xs = same.map((r) => r.max_sustainable_rate as number).sort((a, b) => a - b);
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
  const status = (rate as number) < median * (1 - floor) ? 'regressed' : (rate as number) > median * (1 + floor) ? 'improved' : 'unchanged';
  return { status, rate, median, runs: same.length, floor };
}

/**
 * The verdict as one line.
 *
 * @example
 * capacityVerdictLine(v, 'conversations/s'); // 'capacity verdict: regressed: 4.00 conversations/s against a median of 5.00 over the last 3 searches (-20.0 %;
 * a move beyond 10 % counts)'
 */
export function capacityVerdictLine(v: CapacityVerdict, per: string, digits = 2): string {
  const rate = v.rate === null ? 'none' : `${v.rate.toFixed(digits)} ${per}`;
  if (v.status === 'not judged') return `capacity verdict: not judged: ${v.reason}`;
  if (v.status === 'no baseline') return `capacity verdict: no baseline yet: ${rate} is the first search of this scenario, target and engine kind`;
  const median = v.median as number;
  const change = (((v.rate as number) - median) / median) * 100;
  return (
    `capacity verdict: ${v.status}: ${rate} against a median of ${median.toFixed(Math.max(1, digits))} ${per} over the last ${v.runs} ` +
    `search${v.runs === 1 ? '' : 'es'} (${change >= 0 ? '+' : ''}${change.toFixed(1)} %; a move beyond ${(v.floor * 100).toFixed(0)} % counts)`
  );
}
