// A learned distribution drawn inside the engine (no zod here: scenario bundles stay small).
import type { QuantileTable } from '../config.js';

/** The probabilities of a table's quantiles, in order. */
export const QUANTILE_POINTS = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99] as const;

/**
 * A draw from a learned distribution: its quantiles read as a piecewise-linear inverse CDF, the tails carried on to
 * p0 and p100 by the slope of the nearest step (p0 no lower than 0).
 *
 * @example
 * drawFrom({ p5: 1, p10: 1, p25: 2, p50: 2, p75: 3, p90: 3, p95: 3, p99: 3 }, 0.5) // 2
 */
export function drawFrom(q: QuantileTable, u: number): number {
  const ps = [0, ...QUANTILE_POINTS, 1];
  const xs = [Math.max(0, q.p5 - (q.p10 - q.p5)), q.p5, q.p10, q.p25, q.p50, q.p75, q.p90, q.p95, q.p99, q.p99 + (q.p99 - q.p95) / 4];
  for (let i = 1; i < ps.length; i++) {
    const p1 = ps[i] as number;
    if (u <= p1) {
      const p0 = ps[i - 1] as number;
      const x0 = xs[i - 1] as number;
      return x0 + ((xs[i] as number) - x0) * ((u - p0) / (p1 - p0));
    }
  }
  return xs[xs.length - 1] as number;
}
