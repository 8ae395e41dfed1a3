import { CHANGE_POINTS, type ChangePoint, type ChangePointOptions, changePoints, type Segment, segmentsOf } from './change-points.js';
import type { NightMetric } from './metrics.js';
import { tTest } from './student-t.js';

/**
 * How far back drift is looked for: the runs of the workload, up to a year of nights (change points cost O(n²)). A
 * level counts as moved when its segment and the reference segment pass the same t-test as a change point.
 */
export const DRIFT: ChangePointOptions & { readonly history: number } = { history: 365, ...CHANGE_POINTS };

/** The floors a change of level must exceed to count: the band's (src/nightly/verdict.ts BAND). */
export interface Floors {
  readonly relativeFloor: number;
  readonly absoluteFloor: Readonly<Record<NightMetric['unit'], number>>;
}

/** A segment of a metric's runs, with its level in the metric's unit (a geometric mean for latency and throughput). */
export interface Level extends Segment {
  readonly level: number;
}

/** A metric's runs cut at their change points. */
export interface Levels {
  readonly points: readonly ChangePoint[];
  /** Oldest first; the last is tonight's. */
  readonly segments: readonly Level[];
}

/**
 * A metric's values (oldest first, tonight last) cut where their level changed. Latencies and throughput are cut on
 * a log scale, as the band judges them: their noise is multiplicative.
 *
 * @example
 * levelsOf([100, 101, 99, 100, 102, 98, 130, 131, 129, 130, 132, 128], 'ms').segments.map((s) => Math.round(s.level)); // [100, 130]
 */
export function levelsOf(values: readonly number[], unit: NightMetric['unit'], options: ChangePointOptions = DRIFT): Levels {
  const log = (unit === 'ms' || unit === 'per_s') && values.every((x) => x > 0);
  const xs = log ? values.map(Math.log) : values;
  const points = changePoints(xs, options);
  const segments = segmentsOf(xs, points).map((s) => ({ ...s, level: log ? Math.exp(s.moments.mean) : s.moments.mean }));
  return { points, segments };
}

export type LevelStatus = 'regressed' | 'improved' | 'unchanged';

/** Tonight's level against an earlier one. */
export interface LevelChange {
  /** The level of the segment holding the reference run, and tonight's segment's. */
  readonly from: number;
  readonly to: number;
  readonly status: LevelStatus;
  /** Where the move began (an index into the values): the first run of the earliest segment since which every level was on tonight's side of `from`. */
  readonly since?: number;
}

/**
 * Tonight's level (its segment's) against the level of the segment holding value `reference`: regressed when worse,
 * in the metric's worse direction, by more than the band's floor (10 % of the reference level, at least 1 ms, half a
 * percentage point or one event), and the t-test between the two segments says they differ (p below `maxP`).
 *
 * @example
 * levelChange(levelsOf(p95s, 'ms'), 0, { unit: 'ms', better: 'lower' }, BAND); // { from: 100, to: 130, status: 'regressed', since: 6 }
 */
export function levelChange(
  levels: Levels,
  reference: number,
  metric: Pick<NightMetric, 'unit' | 'better'>,
  floors: Floors,
  options: ChangePointOptions = DRIFT,
): LevelChange {
  const segs = levels.segments;
  const ref = Math.max(
    0,
    segs.findIndex((s) => reference >= s.from && reference < s.to),
  );
  const now = segs.length - 1;
  const a = segs[ref] as Level;
  const b = segs[now] as Level;
  const floor = Math.max(floors.relativeFloor * Math.abs(a.level), floors.absoluteFloor[metric.unit]);
  const worse = metric.better === 'lower' ? 1 : -1;
  const moved = (b.level - a.level) * worse;
  // Segments next to each other passed the t-test when they were cut; the reference and tonight's may lie further
  // apart, past a move there and back, so they pass it again themselves.
  const differ = ref !== now && tTest(a.moments, b.moments) < options.maxP;
  const status: LevelStatus = differ && moved > floor ? 'regressed' : differ && moved < -floor ? 'improved' : 'unchanged';
  if (status === 'unchanged') return { from: a.level, to: b.level, status };
  let first = now;
  while (first - 1 > ref && Math.sign(((segs[first - 1] as Level).level - a.level) * worse) === Math.sign(moved)) first--;
  return { from: a.level, to: b.level, status, since: (segs[first] as Level).from };
}
