import type { NightMetric } from './metrics.js';

/**
 * How tonight is compared with the nights before. The band around the baseline's median is
 * k times its scaled MAD (a robust standard deviation), and never narrower than a tenth of the
 * median or an absolute floor per unit, so a metric that never moves (0 errors) does not turn a
 * single error into an alarm below the floor, and a sub-millisecond latency does not alarm on jitter.
 * With these values 100 seeded histories of pure noise raise no alarm (src/nightly/verdict.test.ts).
 */
export const BAND = {
  /** Baseline: the last this-many runs of the same scenario and workload. */
  baseline: 14,
  /** Fewer earlier runs than this: no verdict yet ("no baseline"). */
  minBaseline: 7,
  k: 5,
  relativeFloor: 0.1,
  absoluteFloor: { ms: 1, ratio: 0.005, per_s: 0, count: 0.5 } as Record<NightMetric['unit'], number>,
} as const;
export type Band = typeof BAND;

export type MetricStatus = 'improved' | 'unchanged' | 'regressed' | 'no baseline';

/** One metric's verdict, with the numbers it rests on. */
export interface MetricVerdict {
  readonly metric: string;
  readonly unit: NightMetric['unit'];
  readonly better: NightMetric['better'];
  readonly value: number;
  /** Baseline median and band; absent without enough baseline. */
  readonly median?: number;
  readonly low?: number;
  readonly high?: number;
  /** Baseline runs that had this metric. */
  readonly n: number;
  readonly status: MetricStatus;
}

/** A night's verdict: regressed when any metric regressed, improved when none did and one improved. */
export interface Verdict {
  readonly status: MetricStatus;
  readonly baselineRuns: number;
  readonly metrics: MetricVerdict[];
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
/**
 * The baseline's spread: its MAD scaled by 1.4826 (a robust standard deviation), or its standard
 * deviation when that is larger. The MAD of a dozen nights is itself noisy: when a few nights happen to
 * cluster it collapses and the band with it, which alone raised one false alarm in 70 noise histories.
 * The standard deviation leaves out the night furthest from the median when it is further than 5 MADs: a
 * single wild night (a CI runner starved of CPU) must not widen the band for the next two weeks.
 */
const spreadOf = (xs: readonly number[], m: number) => {
  const mad = 1.4826 * median(xs.map((x) => Math.abs(x - m)));
  const furthest = xs.reduce((f, x, i) => (Math.abs(x - m) > Math.abs((xs[f] as number) - m) ? i : f), 0);
  const wild = Math.abs((xs[furthest] as number) - m) > OUTLIER_MADS * mad;
  const kept = wild ? xs.filter((_, i) => i !== furthest) : xs;
  const mean = kept.reduce((a, x) => a + x, 0) / kept.length;
  const sd = Math.sqrt(kept.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, kept.length - 1));
  return Math.max(mad, sd);
};
/** A night further than this many MADs from the median is wild, not noise. */
const OUTLIER_MADS = 5;

/**
 * Few nights estimate the spread poorly: k widens as Student's t quantile does over the normal one at
 * 1 in 10,000 (t with n−1 degrees of freedom over z): ×2.3 with 5 nights, ×1.13 with 14.
 */
const T_OVER_Z = [2.315, 1.847, 1.602, 1.454, 1.355, 1.286, 1.233, 1.193, 1.161, 1.135, 1.113];
const widening = (n: number) => T_OVER_Z[n - 5] ?? 1.1;

/**
 * Judges one metric against its baseline values (oldest first).
 *
 * @example
 * judgeMetric('chat p95', { value: 9, unit: 'ms', better: 'lower' }, [5, 5.2, 4.9, 5.1, 5]).status; // 'regressed'
 */
export function judgeMetric(metric: string, tonight: NightMetric, baseline: readonly number[], band: Band = BAND): MetricVerdict {
  const base = { metric, unit: tonight.unit, better: tonight.better, value: tonight.value, n: baseline.length };
  if (baseline.length < band.minBaseline) return { ...base, status: 'no baseline' };
  const m = median(baseline);
  const k = band.k * widening(baseline.length);
  // Latency and throughput noise is multiplicative (a slow night stretches the tail), so their band
  // is k MADs of the logarithm: symmetric in ratio, not in milliseconds. Rates and counts are additive.
  const logScale = (tonight.unit === 'ms' || tonight.unit === 'per_s') && baseline.every((x) => x > 0);
  const spread = logScale ? Math.expm1(k * spreadOf(baseline.map(Math.log), Math.log(m))) * m : k * spreadOf(baseline, m);
  const half = Math.max(spread, band.relativeFloor * Math.abs(m), band.absoluteFloor[tonight.unit]);
  const low = logScale ? Math.min(m - band.relativeFloor * m, m / (1 + half / m)) : m - half;
  const high = m + half;
  const worse = tonight.better === 'lower' ? tonight.value > high : tonight.value < low;
  const better = tonight.better === 'lower' ? tonight.value < low : tonight.value > high;
  return { ...base, median: m, low, high, status: worse ? 'regressed' : better ? 'improved' : 'unchanged' };
}

/**
 * Judges tonight's metrics against the earlier runs' (oldest first; only the last `band.baseline` count).
 *
 * @example
 * const v = judge(earlier.map((r) => r.metrics), metricsOf(summary));
 * if (v.status === 'regressed') process.exitCode = 6;
 */
export function judge(earlier: readonly Readonly<Record<string, NightMetric>>[], tonight: Readonly<Record<string, NightMetric>>, band: Band = BAND): Verdict {
  const window = earlier.slice(-band.baseline);
  const metrics = Object.entries(tonight)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, t]) =>
      judgeMetric(
        name,
        t,
        window.flatMap((r) => (r[name] ? [r[name].value] : [])),
        band,
      ),
    );
  const has = (s: MetricStatus) => metrics.some((x) => x.status === s);
  const status: MetricStatus = window.length < band.minBaseline ? 'no baseline' : has('regressed') ? 'regressed' : has('improved') ? 'improved' : 'unchanged';
  return { status, baselineRuns: window.length, metrics };
}

const num = (v: number | undefined, unit: NightMetric['unit']) =>
  v === undefined
    ? '—'
    : unit === 'ratio'
      ? `${(v * 100).toFixed(2)}%`
      : `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)}${unit === 'ms' ? ' ms' : unit === 'per_s' ? '/s' : ''}`;

/**
 * One line per metric that left its band, plus the overall line: what the terminal and CI log show.
 *
 * @example
 * verdictLines(v); // ['verdict: regressed against 14 earlier runs', '  regressed chat p95: 9.00 ms (baseline median 5.00 ms, band 4.50 ms … 5.50 ms)']
 */
export function verdictLines(v: Verdict): string[] {
  const head =
    v.status === 'no baseline'
      ? `verdict: no baseline yet (${v.baselineRuns} earlier runs of this workload; ${BAND.minBaseline} needed)`
      : `verdict: ${v.status} against ${v.baselineRuns} earlier runs (${v.metrics.filter((m) => m.status === 'unchanged').length} of ${v.metrics.length} metrics within their band)`;
  const moved = v.metrics
    .filter((m) => m.status === 'regressed' || m.status === 'improved')
    .map(
      (m) =>
        `  ${m.status} ${m.metric}: ${num(m.value, m.unit)} (baseline median ${num(m.median, m.unit)}, band ${num(m.low, m.unit)} … ${num(m.high, m.unit)})`,
    );
  return [head, ...moved];
}
