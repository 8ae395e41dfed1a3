import { describe, expect, it } from 'vitest';
import { emptyHistogram, mergeInto, quantile, RELATIVE_ERROR, record } from './log-histogram.js';
import { percentile } from './percentile.js';

/** A seeded stream of lognormal latencies (ms), so the test reads the same numbers every run. */
function latencies(n: number, seed: number): number[] {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return (s + 1) / 2147483649;
  };
  return Array.from({ length: n }, () => Math.exp(Math.log(80) + 0.9 * Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next())));
}

describe('a log-bucketed histogram', () => {
  it("reads every percentile within its stated relative error of k6's exact one", () => {
    const values = latencies(20_000, 3);
    const h = emptyHistogram();
    for (const v of values) record(h, v);
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [0.5, 0.9, 0.95, 0.99, 0.999]) {
      const got = quantile(h, p) as number;
      expect(Math.abs(got - percentile(sorted, p)) / percentile(sorted, p), `p ${p}`).toBeLessThanOrEqual(RELATIVE_ERROR);
    }
  });

  it('interpolates between the ranks around p·(n−1) as k6 does, so a sparse tail stays within its stated error', () => {
    const sorted = [10, 20, 30, 40, 1000];
    const h = emptyHistogram();
    for (const v of sorted) record(h, v);
    for (const p of [0.5, 0.9, 0.95, 0.99]) {
      const got = quantile(h, p) as number;
      expect(Math.abs(got - percentile(sorted, p)) / percentile(sorted, p), `p ${p}`).toBeLessThanOrEqual(RELATIVE_ERROR);
    }
  });

  it('keeps the smallest and largest sample exactly, and counts zeros apart', () => {
    const h = emptyHistogram();
    for (const v of [0, 0, 3, 700]) record(h, v);
    expect(quantile(h, 0)).toBe(0);
    expect(quantile(h, 1)).toBe(700);
    expect(quantile(h, 0.3)).toBe(0);
    expect(h.zeros).toBe(2);
  });

  it('holds a number of buckets set by the spread of the values, not by how many there were', () => {
    const small = emptyHistogram();
    const large = emptyHistogram();
    for (const v of latencies(1_000, 5)) record(small, v);
    for (const v of latencies(100_000, 5)) record(large, v);
    expect(large.buckets.size).toBeLessThan(small.buckets.size * 2);
    expect(large.buckets.size).toBeLessThan(1_000);
  });

  it('merges two histograms into the histogram of both sets of samples', () => {
    const a = emptyHistogram();
    const b = emptyHistogram();
    const both = emptyHistogram();
    latencies(500, 1).forEach((v, i) => {
      record(i % 2 ? a : b, v);
      record(both, v);
    });
    mergeInto(a, b);
    expect(a.count).toBe(both.count);
    expect(quantile(a, 0.95)).toBe(quantile(both, 0.95));
    expect(a.min).toBe(both.min);
    expect(a.max).toBe(both.max);
  });

  it('has no quantile while it is empty', () => {
    expect(quantile(emptyHistogram(), 0.5)).toBeUndefined();
  });
});
