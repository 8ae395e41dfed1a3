// A trend as a Prometheus native histogram (K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM): exponential buckets of one
// schema, bucket i holding the values in (2^((i-1)/2^schema), 2^(i/2^schema)], cumulative from the run's start.
import type { NativeHistogram } from './remote-write.js';

/**
 * Schema 7: each bucket's upper bound is 2^(1/128) ≈ 1.0054 times its lower, so any quantile read from it is within
 * 0.55 % of a value of its bucket: finer than the 1 % the trend stats keep (src/core/log-histogram.ts), with half the
 * buckets of schema 8, the finest; a duration spread over one decade takes at most 426 buckets.
 */
export const NATIVE_SCHEMA = 7;

/** Values at or below this count in the zero bucket: the default of Prometheus's own Go client (2^-128). */
export const ZERO_THRESHOLD = 2 ** -128;

/**
 * The bucket a positive value falls in at `schema`.
 *
 * @example
 * nativeBucket(1, 7); // 0: (2^(-1/128), 1]
 */
export function nativeBucket(v: number, schema = NATIVE_SCHEMA): number {
  return Math.ceil(Math.log2(v) * 2 ** schema);
}

/** One trend series's histogram, fed a value at a time, sent whole on every push. */
export class NativeHistogramSink {
  #buckets = new Map<number, number>();
  count = 0;
  sum = 0;
  zeroCount = 0;

  /** Adds one value, in the unit the series is sent in. */
  add(v: number): void {
    this.count++;
    this.sum += v;
    if (v <= ZERO_THRESHOLD) this.zeroCount++;
    else {
      const i = nativeBucket(v);
      this.#buckets.set(i, (this.#buckets.get(i) ?? 0) + 1);
    }
  }

  /**
   * The histogram as remote write carries it: runs of adjacent buckets as spans, each count a delta from the last.
   *
   * @example
   * sink.add(0.001); sink.toProto(Date.now()); // { count: 1, positiveSpans: [{ offset: -1275, length: 1 }], positiveDeltas: [1], … }
   */
  toProto(timestamp: number): NativeHistogram {
    const at = [...this.#buckets.keys()].sort((a, b) => a - b);
    const spans: { offset: number; length: number }[] = [];
    const deltas: number[] = [];
    let next: number | undefined;
    let last = 0;
    for (const i of at) {
      const span = spans.at(-1);
      if (span && i === next) span.length++;
      else spans.push({ offset: next === undefined ? i : i - next, length: 1 });
      next = i + 1;
      const c = this.#buckets.get(i) as number;
      deltas.push(c - last);
      last = c;
    }
    return {
      count: this.count,
      sum: this.sum,
      schema: NATIVE_SCHEMA,
      zeroThreshold: ZERO_THRESHOLD,
      zeroCount: this.zeroCount,
      positiveSpans: spans,
      positiveDeltas: deltas,
      timestamp,
    };
  }
}
