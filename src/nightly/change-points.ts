import { type Moments, momentsOf, tTest } from './student-t.js';

/**
 * How change points are found: E-divisive means (James & Matteson, the energy distance with α = 1) splits a
 * series where the values before and after differ most, and a split stands only when Student's t-test finds the
 * two sides' means different (as Apache Otava, formerly Hunter, tests it instead of E-divisive's permutation test:
 * deterministic, and O(n²) per series).
 */
export const CHANGE_POINTS = {
  /**
   * A split stands when the t-test's two-sided p-value is below this. Otava's default is 0.001; here every night is
   * judged again on dozens of metrics, and the split tested is the best of many, so its p-value flatters it: at 0.001,
   * 1.2 % of the nights of pure-noise histories (src/nightly/noise.ts) drifted; at 1e-6, 0.06 in 1,000.
   */
  maxP: 1e-6,
  /** Fewest runs on each side of a change point: shorter stretches are noise to the t-test. */
  minSize: 5,
} as const;
export type ChangePointOptions = { readonly maxP: number; readonly minSize: number };

/** A change point: the series' level changes from `index` on (the first run of the new level). */
export interface ChangePoint {
  readonly index: number;
  /** The t-test's p-value between the segments on either side. */
  readonly p: number;
}

/**
 * The split of xs[from..to) with the largest energy statistic Q̂(τ) = nm/(n+m) · (2/(nm)·Σ|x−y| − Σ|x−x'|/C(n,2) −
 * Σ|y−y'|/C(m,2)), each side at least `minSize` long; undefined when the stretch is too short. The three sums move by
 * one row each as τ advances, so a stretch of length L costs O(L²), and each round of splits O(n²) over the series.
 *
 * @example
 * bestSplit([1, 1, 1, 1, 1, 5, 5, 5, 5, 5], 0, 10, 2); // 5
 */
export function bestSplit(xs: readonly number[], from: number, to: number, minSize: number): number | undefined {
  const first = from + minSize;
  const last = to - minSize;
  if (first > last || minSize < 2) return undefined;
  let left = 0; // Σ|xi − xj| within [from, τ)
  let right = 0; // within [τ, to)
  let total = 0; // within [from, to)
  for (let i = from; i < to; i++)
    for (let j = i + 1; j < to; j++) {
      const d = Math.abs((xs[i] as number) - (xs[j] as number));
      total += d;
      if (j < first) left += d;
      else if (i >= first) right += d;
    }
  let best: number | undefined;
  let bestQ = Number.NEGATIVE_INFINITY;
  for (let tau = first; tau <= last; tau++) {
    const n = tau - from;
    const m = to - tau;
    const between = total - left - right;
    const q = ((n * m) / (n + m)) * ((2 * between) / (n * m) - (2 * left) / (n * (n - 1)) - (2 * right) / (m * (m - 1)));
    if (q > bestQ + 1e-12) {
      bestQ = q;
      best = tau;
    }
    // x[τ] moves from the right side to the left.
    const x = xs[tau] as number;
    for (let i = from; i < tau; i++) left += Math.abs((xs[i] as number) - x);
    for (let j = tau + 1; j < to; j++) right -= Math.abs(x - (xs[j] as number));
  }
  return best;
}

/** The p-value of each change point between its neighbouring segments (bounded by the change points either side). */
function pValues(xs: readonly number[], indices: readonly number[]): number[] {
  const bounds = [0, ...indices, xs.length];
  const moments: Moments[] = bounds.slice(1).map((to, i) => momentsOf(xs, bounds[i] as number, to));
  return indices.map((_, i) => tTest(moments[i] as Moments, moments[i + 1] as Moments));
}

/**
 * The change points of a series (oldest first), by E-divisive means with a t-test: split the whole series at its
 * best split, keep the split when the t-test says the two sides differ, split each side again, and so on; then, as
 * Otava does, test each change point again between its final neighbours and drop the weakest until every one stands.
 *
 * @example
 * changePoints([10, 10.2, 9.9, 10.1, 10, 9.8, 13, 13.1, 12.9, 13.2, 13, 12.8]); // [{ index: 6, p: 5.3e-12 }]
 */
export function changePoints(xs: readonly number[], options: ChangePointOptions = CHANGE_POINTS): ChangePoint[] {
  const found: number[] = [];
  const stretches: [number, number][] = [[0, xs.length]];
  for (let s = stretches.pop(); s; s = stretches.pop()) {
    const [from, to] = s;
    const tau = bestSplit(xs, from, to, options.minSize);
    if (tau === undefined || tTest(momentsOf(xs, from, tau), momentsOf(xs, tau, to)) >= options.maxP) continue;
    found.push(tau);
    stretches.push([from, tau], [tau, to]);
  }
  let indices = found.sort((a, b) => a - b);
  for (;;) {
    const ps = pValues(xs, indices);
    const weakest = ps.reduce((w, p, i) => (p > (ps[w] as number) ? i : w), 0);
    if (!indices.length || (ps[weakest] as number) < options.maxP) return indices.map((index, i) => ({ index, p: ps[i] as number }));
    indices = indices.filter((_, i) => i !== weakest);
  }
}

/** A stretch of a series between change points, with its moments. */
export interface Segment {
  readonly from: number;
  /** Exclusive. */
  readonly to: number;
  readonly moments: Moments;
}

/**
 * The segments the change points cut a series into, each with its count, mean and sum of squares.
 *
 * @example
 * segmentsOf([1, 1, 3, 3], [{ index: 2, p: 0 }]).map((s) => s.moments.mean); // [1, 3]
 */
export function segmentsOf(xs: readonly number[], points: readonly ChangePoint[]): Segment[] {
  const bounds = [0, ...points.map((c) => c.index), xs.length];
  return bounds.slice(1).map((to, i) => ({ from: bounds[i] as number, to, moments: momentsOf(xs, bounds[i] as number, to) }));
}
