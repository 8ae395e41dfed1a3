// What one metric or sub-metric has aggregated, and the figures k6 reads from it: counter count/rate, gauge
// value/min/max, rate share of non-zero, trend avg/min/med/max/p(N) (/using-k6/metrics/).

import type { MetricType } from '../../core/metrics.js';
import { percentile } from '../../core/percentile.js';

const FIRST_CAPACITY = 1024;

/**
 * The running aggregate of one (sub-)metric. `add` allocates nothing except when a trend's value buffer doubles.
 *
 * @example
 * const s = new Sink('trend');
 * s.add(10); s.add(30);
 * s.stat('med', 1); // 20
 */
export class Sink {
  count = 0;
  sum = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  nonZero = 0;
  last = 0;
  /** Every value of a trend (percentiles need them all, as k6 keeps them all); null for the other types. */
  private values: Float64Array | null;
  /** How many of `values` from the start are known to be in order (sorting happens only when a figure is read). */
  private sortedCount = 0;

  constructor(readonly type: MetricType) {
    this.values = type === 'trend' ? new Float64Array(FIRST_CAPACITY) : null;
  }

  add(v: number): void {
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (v !== 0) this.nonZero++;
    this.last = v;
    const vs = this.values;
    if (vs !== null) {
      if (this.count === vs.length) this.grow();
      (this.values as Float64Array)[this.count] = v;
    }
    this.count++;
  }

  private grow(): void {
    const old = this.values as Float64Array;
    const next = new Float64Array(old.length * 2);
    next.set(old);
    this.values = next;
  }

  /**
   * The trend's values in ascending order (a view, valid until the next `add`). Values added since the last call are
   * sorted on their own and merged in, so reading figures every few seconds during a run stays linear.
   */
  sorted(): Float64Array {
    const vs = this.values;
    if (vs === null) return new Float64Array(0);
    const n = this.count;
    const s = this.sortedCount;
    if (s < n) {
      if (s === 0 || n - s > s) {
        vs.subarray(0, n).sort();
      } else {
        const tail = vs.slice(s, n).sort();
        // Merge from the end so the sorted prefix is never overwritten before it is read.
        let i = s - 1;
        let j = tail.length - 1;
        for (let k = n - 1; j >= 0; k--) {
          if (i >= 0 && (vs[i] as number) > (tail[j] as number)) vs[k] = vs[i--] as number;
          else vs[k] = tail[j--] as number;
        }
      }
      this.sortedCount = n;
    }
    return vs.subarray(0, n);
  }

  /** The p-th percentile (0..100) of a trend, k6's way (linear interpolation); undefined without values. */
  percentile(p: number): number | undefined {
    if (this.count === 0 || this.values === null) return undefined;
    // merge.ts's percentile reads only length and indices, which a Float64Array has.
    return percentile(this.sorted() as unknown as readonly number[], p / 100);
  }

  /**
   * One figure by its k6 name: `count` `rate` (counter: per second of `seconds`), `value` `min` `max` (gauge), `rate`
   * `passes` `fails` (rate), `avg` `min` `max` `med` `p(N)` `count` (trend). Undefined when there is nothing to give:
   * any figure of an empty gauge, rate or trend, except counts, which are 0.
   */
  stat(name: string, seconds: number): number | undefined {
    const empty = this.count === 0;
    switch (this.type) {
      case 'counter':
        if (name === 'count') return this.sum;
        if (name === 'rate') return seconds > 0 ? this.sum / seconds : 0;
        return undefined;
      case 'gauge':
        if (empty) return undefined;
        if (name === 'value') return this.last;
        if (name === 'min') return this.min;
        if (name === 'max') return this.max;
        return undefined;
      case 'rate':
        if (name === 'passes') return this.nonZero;
        if (name === 'fails') return this.count - this.nonZero;
        if (name === 'rate' || name === 'value') return empty ? undefined : this.nonZero / this.count;
        return undefined;
      case 'trend': {
        if (name === 'count') return this.count;
        if (empty) return undefined;
        if (name === 'avg') return this.sum / this.count;
        if (name === 'min') return this.min;
        if (name === 'max') return this.max;
        if (name === 'med') return this.percentile(50);
        const p = parsePercentileStat(name);
        return p === undefined ? undefined : this.percentile(p);
      }
    }
  }
}

const P_STAT = /^p\((\d+(?:\.\d*)?|\.\d+)\)$/;

/**
 * N of a `p(N)` stat name (0..100), or undefined for any other name.
 *
 * @example
 * parsePercentileStat('p(99.9)'); // 99.9
 */
export function parsePercentileStat(name: string): number | undefined {
  const m = P_STAT.exec(name);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n >= 0 && n <= 100 ? n : undefined;
}

/** k6's default `summaryTrendStats` (/using-k6/k6-options/reference/#summary-trend-stats). */
export const DEFAULT_TREND_STATS: readonly string[] = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

/**
 * Checks `summaryTrendStats`: each is avg, min, med, max, count or p(N) with N in 0..100. Throws a one-line error.
 *
 * @example
 * checkTrendStats(['avg', 'p(99)']);
 */
export function checkTrendStats(stats: readonly string[]): void {
  for (const s of stats) {
    if (!['avg', 'min', 'med', 'max', 'count'].includes(s) && parsePercentileStat(s) === undefined)
      throw new Error(`summaryTrendStats: "${s}" is not a trend stat (avg, min, med, max, count or p(N) with N from 0 to 100)`);
  }
}

/**
 * The keys a summary shows for a metric type: trends follow `summaryTrendStats`, counters `count rate`, gauges
 * `value min max`, rates `passes fails value` (the legacy --summary-export shape).
 *
 * @example
 * summaryKeys('counter', DEFAULT_TREND_STATS); // ['count', 'rate']
 */
export function summaryKeys(type: MetricType, trendStats: readonly string[]): readonly string[] {
  switch (type) {
    case 'counter':
      return ['count', 'rate'];
    case 'gauge':
      return ['value', 'min', 'max'];
    case 'rate':
      return ['passes', 'fails', 'value'];
    case 'trend':
      return trendStats;
  }
}

/**
 * A sink's figures under `keys`; what an empty sink cannot give is 0, as k6 prints an empty sink's figures.
 *
 * @example
 * summaryValues(sink, summaryKeys('rate', DEFAULT_TREND_STATS), 60); // { passes: 9, fails: 1, value: 0.9 }
 */
export function summaryValues(sink: Sink, keys: readonly string[], seconds: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = sink.stat(k, seconds) ?? 0;
  return out;
}
