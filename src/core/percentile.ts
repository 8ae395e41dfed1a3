// The percentile k6 computes, once: the built-in engine's trends, the exact merge of segments and the traffic learner
// all read a percentile the same way.

/**
 * The p-th percentile (0..1) of sorted values, as k6 computes it: linear interpolation between the
 * two samples around rank p·(n−1). Merged percentiles use this over the union of every segment's samples.
 *
 * @example
 * percentile([1, 2, 3, 4], 0.5); // 2.5
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = p * (sorted.length - 1);
  const lo = sorted[Math.floor(i)] as number;
  const hi = sorted[Math.ceil(i)] as number;
  return lo + (hi - lo) * (i - Math.floor(i));
}
