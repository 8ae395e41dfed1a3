// A bounded latency histogram: buckets that grow by a fixed ratio, so any quantile read from it lies within a stated
// relative error of the exact one (DDSketch's mapping) and its size depends on the spread of the values, never on how
// many there were. Two of them merge by adding counts, which is what per-interval series and segments need.

/** The relative error of every value read back: within 1 % of a sample the histogram holds. */
export const RELATIVE_ERROR = 0.01;
const GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);
/** Values at or below this (ms) are counted as zero: no latency is measured that finely. */
const SMALLEST = 1e-6;

/** Counts per bucket index (bucket i holds values in (γ^(i-1), γ^i]), and the values too small for any bucket. */
export interface LogHistogram {
  readonly buckets: Map<number, number>;
  zeros: number;
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * An empty histogram.
 *
 * @example
 * const h = emptyHistogram(); record(h, 12.5);
 */
export function emptyHistogram(): LogHistogram {
  return { buckets: new Map(), zeros: 0, count: 0, sum: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
}

/** The bucket a positive value falls in: `bucketOf(700)` is 328. */
export const bucketOf = (v: number): number => Math.ceil(Math.log(v) / LOG_GAMMA);

/** The value a bucket stands for, within RELATIVE_ERROR of everything in it: `bucketValue(bucketOf(700))` is about 700. */
export const bucketValue = (i: number): number => (2 * GAMMA ** i) / (GAMMA + 1);

/**
 * Adds one sample.
 *
 * @example
 * record(h, 702.2);
 */
export function record(h: LogHistogram, v: number): void {
  recordIn(h, v, bucketFor(v));
}

/** The bucket of any value, or undefined for one counted as zero: found once, it serves every histogram the value goes in. */
export const bucketFor = (v: number): number | undefined => (v <= SMALLEST ? undefined : bucketOf(v));

/**
 * Adds one sample whose bucket is known (`bucketFor(v)`).
 *
 * @example
 * const i = bucketFor(702.2); for (const h of hs) recordIn(h, 702.2, i);
 */
export function recordIn(h: LogHistogram, v: number, i: number | undefined): void {
  h.count++;
  h.sum += v;
  if (v < h.min) h.min = v;
  if (v > h.max) h.max = v;
  if (i === undefined) h.zeros++;
  else h.buckets.set(i, (h.buckets.get(i) ?? 0) + 1);
}

/**
 * Adds every count of `from` into `into`.
 *
 * @example
 * mergeInto(wholeRun, oneSecond);
 */
export function mergeInto(into: LogHistogram, from: LogHistogram): void {
  into.count += from.count;
  into.sum += from.sum;
  into.zeros += from.zeros;
  into.min = Math.min(into.min, from.min);
  into.max = Math.max(into.max, from.max);
  for (const [i, c] of from.buckets) into.buckets.set(i, (into.buckets.get(i) ?? 0) + c);
}

/**
 * The p-quantile (0..1) as k6 computes a percentile: interpolated between the samples at ranks ⌊p·(n−1)⌋ and
 * ⌈p·(n−1)⌉, each read within RELATIVE_ERROR, so the result is within RELATIVE_ERROR of k6's exact percentile; undefined
 * when empty. The smallest and largest samples are kept exactly, so p = 0 and p = 1 are exact.
 *
 * @example
 * quantile(h, 0.95); // 701.9 for a run whose exact p95 is 702.2
 */
export function quantile(h: LogHistogram, p: number): number | undefined {
  if (h.count === 0) return undefined;
  if (p <= 0) return h.min;
  if (p >= 1) return h.max;
  const at = p * (h.count - 1);
  const lo = Math.floor(at);
  const order = [...h.buckets.keys()].sort((a, b) => a - b);
  const vLo = atRank(h, order, lo);
  return at === lo ? vLo : vLo + (atRank(h, order, lo + 1) - vLo) * (at - lo);
}

/** The sample at a rank (0-based) as the histogram holds it: its bucket's value, the exact ends at the first and last rank. */
function atRank(h: LogHistogram, order: readonly number[], rank: number): number {
  if (rank <= 0) return h.min;
  if (rank >= h.count - 1) return h.max;
  let seen = h.zeros;
  if (rank < seen) return h.min;
  for (const i of order) {
    seen += h.buckets.get(i) ?? 0;
    if (rank < seen) return Math.min(h.max, Math.max(h.min, bucketValue(i)));
  }
  return h.max;
}
