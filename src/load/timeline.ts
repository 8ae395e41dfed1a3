// The run over time, from the run's own samples (k6's JSON output): requests and iterations per second, active VUs,
// dropped iterations, error rate and each SLO's metric per interval, and the whole run's latency distribution. Samples
// are folded into one tally per second (latencies into bounded log histograms), so what the tally holds grows with the
// run's length and its operations, never with its request count; `timelineOf` then cuts it to at most MAX_POINTS.

import { bucketValue, emptyHistogram, type LogHistogram, mergeInto, quantile, record } from '../core/log-histogram.js';
import { parseMetricKey, parseThresholdExpression, type ThresholdExpression } from '../core/thresholds.js';

/** The most intervals a timeline keeps: more seconds than this are joined into longer intervals. */
export const MAX_POINTS = 240;
/** Bins of the latency distribution between a series' fastest and slowest sample. */
const DISTRIBUTION_BINS = 40;
/** The latency series drawn for every run, per operation (the `op` tag the scenarios put on each request). */
export const LATENCY_METRIC = 'http_req_duration';
/** The error rate drawn for every run. */
export const ERROR_METRIC = 'http_req_failed';
/** The statistics every latency series keeps per interval; an SLO's own aggregation is kept beside them. */
const BASE_STATS = ['p(50)', 'p(95)', 'p(99)'] as const;

/** One sample as k6's JSON output gives it, with the metric's type from its Metric line. */
export interface Sample {
  readonly metric: string;
  readonly type: 'counter' | 'gauge' | 'rate' | 'trend' | undefined;
  readonly timeMs: number;
  readonly value: number;
  readonly tags: Readonly<Record<string, string>>;
  /** Which engine process wrote it (a segment, a worker): gauges of different sources add up. */
  readonly source?: number;
}

/** A series a tally keeps per interval: a metric key of an SLO (or of a plot), and what it must be read at. */
interface Watched {
  readonly key: string;
  readonly metric: string;
  readonly tags: Readonly<Record<string, string>>;
}

interface Second {
  readonly counts: Map<string, number>;
  /** Per source, the largest VU count it reported in this second. */
  readonly vus: Map<number, number>;
  readonly rates: Map<string, { nonZero: number; count: number }>;
  readonly trends: Map<string, LogHistogram>;
}

/** What the samples of a run fold into: one entry per second, and each latency series' whole-run histogram. */
export interface Tally {
  readonly watched: readonly Watched[];
  /** The SLOs' aggregations per trend key (p(90), avg, …), kept per interval beside the base statistics. */
  readonly aggregations: ReadonlyMap<string, readonly string[]>;
  readonly seconds: Map<number, Second>;
  readonly whole: Map<string, LogHistogram>;
}

/** A latency or other trend series at one interval: the count and each statistic kept (`p(95)`, `avg`, …). */
export interface TrendPoint {
  readonly count: number;
  readonly stats: Readonly<Record<string, number>>;
}

/** One interval of the run. */
export interface TimelinePoint {
  /** Seconds from the run's first sample to the interval's start. */
  readonly t: number;
  readonly requests_per_s: number;
  readonly iterations_per_s: number;
  readonly dropped_per_s: number;
  /** The most VUs active at once in the interval; null when no engine reported them. */
  readonly vus: number | null;
  /** Each rate series' share of non-zero samples in the interval (for http_req_failed: the error rate). */
  readonly rates: Readonly<Record<string, number>>;
  /** Each trend series: `http_req_duration{op:…}` per operation, and every trend an SLO names. */
  readonly trends: Readonly<Record<string, TrendPoint>>;
}

/** The run over time, as the page draws it and timeline.json keeps it. */
export interface Timeline {
  /** ISO time of the first second with a sample. */
  readonly started_at: string;
  readonly interval_s: number;
  readonly points: readonly TimelinePoint[];
  /** Each latency series over the whole run: log-spaced bins, each with its share of the series' samples. */
  readonly distribution: Readonly<Record<string, readonly { readonly ms: number; readonly share: number }[]>>;
  /** What it was drawn from, as the page says it ("the run's own samples" when absent). */
  readonly source?: string;
}

/**
 * An empty tally that keeps, beside the series every page draws, the metric of each SLO key (`checks`,
 * `http_req_duration{op:chat.respond}`) with the aggregations its expressions judge.
 *
 * @example
 * const tally = emptyTally([{ key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<500'] }]);
 */
export function emptyTally(slos: readonly { readonly key: string; readonly expressions: readonly string[] }[]): Tally {
  const watched: Watched[] = [];
  const aggregations = new Map<string, string[]>();
  for (const s of slos) {
    let parsed: ReturnType<typeof parseMetricKey>;
    try {
      parsed = parseMetricKey(s.key);
    } catch {
      continue;
    }
    if (!watched.some((w) => w.key === s.key)) watched.push({ key: s.key, metric: parsed.metric, tags: parsed.tags ?? {} });
    const aggs = s.expressions.flatMap((e) => expressionOf(e)?.aggregation ?? []);
    aggregations.set(s.key, [...new Set([...(aggregations.get(s.key) ?? []), ...aggs])]);
  }
  return { watched, aggregations, seconds: new Map(), whole: new Map() };
}

/**
 * A threshold expression, or undefined for one that does not parse (it is judged elsewhere; here it is not drawn).
 *
 * @example
 * expressionOf('p(95)<500'); // { aggregation: 'p(95)', percentile: 95, operator: '<', value: 500, source: 'p(95)<500' }
 */
export function expressionOf(e: string): ThresholdExpression | undefined {
  try {
    return parseThresholdExpression(e);
  } catch {
    return undefined;
  }
}

/** The per-operation latency key of a sample: `http_req_duration{op:chat.respond}`, or the bare metric without an op. */
export const latencyKey = (tags: Readonly<Record<string, string>>) => (tags.op ? `${LATENCY_METRIC}{op:${tags.op}}` : LATENCY_METRIC);

const secondOf = (t: Tally, s: number): Second => {
  let sec = t.seconds.get(s);
  if (!sec) {
    sec = { counts: new Map(), vus: new Map(), rates: new Map(), trends: new Map() };
    t.seconds.set(s, sec);
  }
  return sec;
};

const addTrend = (m: Map<string, LogHistogram>, key: string, v: number) => {
  let h = m.get(key);
  if (!h) {
    h = emptyHistogram();
    m.set(key, h);
  }
  record(h, v);
};

const addRate = (sec: Second, key: string, v: number) => {
  const r = sec.rates.get(key) ?? { nonZero: 0, count: 0 };
  r.count++;
  if (v !== 0) r.nonZero++;
  sec.rates.set(key, r);
};

/**
 * Folds one sample into the tally.
 *
 * @example
 * addSample(tally, { metric: 'http_reqs', type: 'counter', timeMs: Date.parse(point.time), value: 1, tags: {} });
 */
export function addSample(t: Tally, s: Sample): void {
  const sec = secondOf(t, Math.floor(s.timeMs / 1000));
  if (s.metric === 'http_reqs' || s.metric === 'iterations' || s.metric === 'dropped_iterations')
    sec.counts.set(s.metric, (sec.counts.get(s.metric) ?? 0) + s.value);
  if (s.metric === 'vus') sec.vus.set(s.source ?? 0, Math.max(sec.vus.get(s.source ?? 0) ?? 0, s.value));
  if (s.metric === ERROR_METRIC) addRate(sec, ERROR_METRIC, s.value);
  if (s.metric === LATENCY_METRIC) {
    const key = latencyKey(s.tags);
    addTrend(sec.trends, key, s.value);
    addTrend(t.whole, key, s.value);
  }
  for (const w of t.watched) {
    if (w.metric !== s.metric || !Object.entries(w.tags).every(([k, v]) => s.tags[k] === v)) continue;
    if (s.type === 'rate' && w.key !== ERROR_METRIC) addRate(sec, w.key, s.value);
    if (s.type === 'trend' && w.key !== latencyKey(s.tags)) addTrend(sec.trends, w.key, s.value);
  }
}

/** The statistic `agg` (k6's aggregation names) of a histogram. */
function statOf(h: LogHistogram, agg: string): number | undefined {
  const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(agg);
  if (p) return quantile(h, Number(p[1]) / 100);
  if (agg === 'med') return quantile(h, 0.5);
  if (agg === 'avg') return h.count ? h.sum / h.count : undefined;
  if (agg === 'min') return h.count ? h.min : undefined;
  if (agg === 'max') return h.count ? h.max : undefined;
  return undefined;
}

/** Log-spaced bins over a histogram's range, each with its share of the samples. */
function distributionOf(h: LogHistogram): { ms: number; share: number }[] {
  const lo = Math.max(h.min, 1e-3);
  const hi = Math.max(h.max, lo * 1.01);
  const step = Math.log(hi / lo) / DISTRIBUTION_BINS;
  const bins = Array.from({ length: DISTRIBUTION_BINS }, (_, i) => ({ ms: lo * Math.exp(step * (i + 0.5)), count: 0 }));
  for (const [i, c] of h.buckets) {
    const v = Math.min(hi, Math.max(lo, bucketValue(i)));
    const b = Math.min(DISTRIBUTION_BINS - 1, Math.floor(Math.log(v / lo) / step));
    (bins[b] as { count: number }).count += c;
  }
  (bins[0] as { count: number }).count += h.zeros;
  return bins.map((b) => ({ ms: b.ms, share: h.count ? b.count / h.count : 0 }));
}

/**
 * The timeline of a tally: at most `maxPoints` intervals of whole seconds from the first second with a sample to the
 * last; rates per second over the part of each interval the run covered; undefined when the tally holds nothing.
 *
 * @example
 * const timeline = timelineOf(tally); // { started_at: '2026-11-27T16:36:04.000Z', interval_s: 1, points: [...], distribution: {...} }
 */
export function timelineOf(t: Tally, maxPoints = MAX_POINTS): Timeline | undefined {
  if (t.seconds.size === 0) return undefined;
  const keys = [...t.seconds.keys()];
  const first = Math.min(...keys);
  const last = Math.max(...keys);
  const span = last - first + 1;
  const width = Math.max(1, Math.ceil(span / maxPoints));
  const points: TimelinePoint[] = [];
  for (let start = first; start <= last; start += width) {
    const seconds = Math.min(width, last - start + 1);
    const counts = new Map<string, number>();
    const rates = new Map<string, { nonZero: number; count: number }>();
    const trends = new Map<string, LogHistogram>();
    let vus: number | null = null;
    for (let s = start; s < start + seconds; s++) {
      const sec = t.seconds.get(s);
      if (!sec) continue;
      for (const [k, v] of sec.counts) counts.set(k, (counts.get(k) ?? 0) + v);
      for (const [k, r] of sec.rates) {
        const a = rates.get(k) ?? { nonZero: 0, count: 0 };
        rates.set(k, { nonZero: a.nonZero + r.nonZero, count: a.count + r.count });
      }
      for (const [k, h] of sec.trends) {
        const a = trends.get(k) ?? emptyHistogram();
        mergeInto(a, h);
        trends.set(k, a);
      }
      if (sec.vus.size)
        vus = Math.max(
          vus ?? 0,
          [...sec.vus.values()].reduce((a, b) => a + b, 0),
        );
    }
    const per = (k: string) => (counts.get(k) ?? 0) / seconds;
    points.push({
      t: start - first,
      requests_per_s: per('http_reqs'),
      iterations_per_s: per('iterations'),
      dropped_per_s: per('dropped_iterations'),
      vus,
      rates: Object.fromEntries([...rates].filter(([, r]) => r.count > 0).map(([k, r]) => [k, r.nonZero / r.count])),
      trends: Object.fromEntries(
        [...trends].map(([k, h]) => {
          const aggs = [...new Set([...BASE_STATS, ...(t.aggregations.get(k) ?? [])])];
          const stats = Object.fromEntries(aggs.flatMap((a) => (statOf(h, a) === undefined ? [] : [[a, statOf(h, a) as number]])));
          return [k, { count: h.count, stats }];
        }),
      ),
    });
  }
  const distribution = Object.fromEntries([...t.whole].filter(([, h]) => h.count > 0).map(([k, h]) => [k, distributionOf(h)]));
  return { started_at: new Date(first * 1000).toISOString(), interval_s: width, points, distribution };
}

/**
 * Whether `value` holds against an expression, as k6 compares.
 *
 * @example
 * holds(parseThresholdExpression('p(95)<500'), 702); // false
 */
export function holds(e: ThresholdExpression, value: number): boolean {
  switch (e.operator) {
    case '<':
      return value < e.value;
    case '<=':
      return value <= e.value;
    case '>':
      return value > e.value;
    case '>=':
      return value >= e.value;
    case '!=':
      return value !== e.value;
    default:
      return value === e.value;
  }
}

/** One SLO over the run: the value of its statistic at each interval, and the intervals where that value breached it. */
export interface SloSeries {
  readonly key: string;
  readonly expression: ThresholdExpression;
  readonly kind: 'trend' | 'rate';
  readonly values: readonly { readonly t: number; readonly value: number }[];
  /** Runs of consecutive breached intervals: [start, end) in seconds from the run's start. */
  readonly breaches: readonly { readonly from: number; readonly to: number }[];
}

/**
 * Each SLO a timeline can draw (a trend at an aggregation it kept, or a rate): its value per interval and the spans
 * where the interval's own value breached it. SLOs on counters or gauges are judged over the whole run only.
 *
 * @example
 * sloSeries(timeline, [{ key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<500'] }]);
 * // [{ key, expression, kind: 'trend', values: [{ t: 0, value: 702 }, …], breaches: [{ from: 0, to: 15 }] }]
 */
export function sloSeries(tl: Timeline, slos: readonly { readonly key: string; readonly expressions: readonly string[] }[]): SloSeries[] {
  const out: SloSeries[] = [];
  for (const s of slos) {
    for (const text of s.expressions) {
      const e = expressionOf(text);
      if (!e) continue;
      const kind = e.aggregation === 'rate' ? 'rate' : e.percentile !== undefined || ['avg', 'min', 'max', 'med'].includes(e.aggregation) ? 'trend' : undefined;
      if (!kind) continue;
      const values = tl.points.flatMap((p) => {
        const v = kind === 'rate' ? p.rates[s.key] : p.trends[s.key]?.stats[e.aggregation];
        return v === undefined ? [] : [{ t: p.t, value: v }];
      });
      if (values.length === 0) continue;
      const breaches: { from: number; to: number }[] = [];
      for (const v of values) {
        if (holds(e, v.value)) continue;
        const prev = breaches.at(-1);
        if (prev && prev.to === v.t) prev.to = v.t + tl.interval_s;
        else breaches.push({ from: v.t, to: v.t + tl.interval_s });
      }
      out.push({ key: s.key, expression: e, kind, values, breaches });
    }
  }
  return out;
}
