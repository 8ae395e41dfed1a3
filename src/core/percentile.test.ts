import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.js';

describe('percentile', () => {
  it('interpolates between the two samples around rank p·(n−1), as k6 does', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 0.95)).toBeCloseTo(48, 10);
  });

  it('gives the smallest and largest sample at 0 and 1, and the one sample of a single-sample list', () => {
    expect(percentile([3, 7, 9], 0)).toBe(3);
    expect(percentile([3, 7, 9], 1)).toBe(9);
    expect(percentile([42], 0.99)).toBe(42);
  });

  it('gives 0 for no samples, as a trend that saw nothing reads', () => {
    expect(percentile([], 0.95)).toBe(0);
  });
});
