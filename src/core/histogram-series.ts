// A run's metrics as bounded histograms: the whole run per summary key, and a series of intervals for the run over
// time. Trends go into log histograms (src/core/log-histogram.ts), counters and rates into counts, gauges into their
// range. The series holds at most a fixed number of intervals: when a sample falls past the last one, adjacent pairs
// are joined and the interval doubles, so a run ten times longer keeps as many intervals, each ten times longer at most.
// The built-in engine writes it as an output; a k6 run's JSON output is folded into the same shape afterwards.

import { bucketFor, emptyHistogram, type LogHistogram, mergeInto, RELATIVE_ERROR, recordIn } from './log-histogram.js';
import { parseMetricKey } from './thresholds.js';

/** The file's format name, so a reader can tell it from the first histograms.json (whole-run buckets only). */
export const HISTOGRAM_FORMAT = 'dialtone-histograms/2';
/** The most intervals a series keeps. */
export const MAX_INTERVALS = 120;

/** The kinds of k6 metric. */
export type MetricKind = 'trend' | 'counter' | 'rate' | 'gauge';

/** A log histogram as stored: dense counts from bucket `first` on, and the counts at zero. */
export interface StoredHistogram {
  readonly zeros: number;
  readonly first: number;
  readonly counts: readonly number[];
}

/** One metric key's figures: count, sum and non-zero count for every kind; a trend's histogram; a gauge's or trend's range. */
export interface StoredMetric {
  readonly kind: MetricKind;
  readonly count: number;
  readonly sum: number;
  readonly nonZero: number;
  readonly min?: number;
  readonly max?: number;
  readonly histogram?: StoredHistogram;
}

/** histograms.json: the whole run per summary key, and the intervals (seconds from `started_ms`) per timeline key. */
export interface HistogramFile {
  readonly format: typeof HISTOGRAM_FORMAT;
  readonly relative_error: number;
  /** Epoch ms of the first interval's start (a whole second). */
  readonly started_ms: number;
  readonly interval_s: number;
  readonly metrics: Readonly<Record<string, StoredMetric>>;
  readonly intervals: readonly { readonly t: number; readonly metrics: Readonly<Record<string, StoredMetric>> }[];
}

/** One key's running figures. */
export interface Acc {
  readonly kind: MetricKind;
  count: number;
  sum: number;
  nonZero: number;
  min: number;
  max: number;
  readonly hist: LogHistogram | undefined;
}

/**
 * An empty accumulator of a kind.
 *
 * @example
 * const a = emptyAcc('trend'); addTo(a, 12.5);
 */
export function emptyAcc(kind: MetricKind): Acc {
  return {
    kind,
    count: 0,
    sum: 0,
    nonZero: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
    hist: kind === 'trend' ? emptyHistogram() : undefined,
  };
}

/**
 * Adds one value.
 *
 * @example
 * addTo(acc, 702.2);
 */
export function addTo(a: Acc, v: number, bucket: number | undefined = bucketFor(v)): void {
  a.count++;
  a.sum += v;
  if (v !== 0) a.nonZero++;
  if (v < a.min) a.min = v;
  if (v > a.max) a.max = v;
  if (a.hist) recordIn(a.hist, v, bucket);
}

/**
 * Adds every figure of `from` into `into` (same kind).
 *
 * @example
 * joinAcc(wholeRun, oneInterval);
 */
export function joinAcc(into: Acc, from: Acc): void {
  into.count += from.count;
  into.sum += from.sum;
  into.nonZero += from.nonZero;
  into.min = Math.min(into.min, from.min);
  into.max = Math.max(into.max, from.max);
  if (into.hist && from.hist) mergeInto(into.hist, from.hist);
}

const finite = (v: number): number | undefined => (Number.isFinite(v) ? v : undefined);

/**
 * An accumulator as stored in the file.
 *
 * @example
 * storeAcc(acc); // { kind: 'trend', count: 3, sum: 36, nonZero: 3, min: 10, max: 14, histogram: { zeros: 0, first: 116, counts: [1, 0, 2] } }
 */
export function storeAcc(a: Acc): StoredMetric {
  const out: { -readonly [K in keyof StoredMetric]: StoredMetric[K] } = { kind: a.kind, count: a.count, sum: a.sum, nonZero: a.nonZero };
  if (a.kind === 'trend' || a.kind === 'gauge') {
    const min = finite(a.min);
    const max = finite(a.max);
    if (min !== undefined) out.min = min;
    if (max !== undefined) out.max = max;
  }
  if (a.hist) {
    const idx = [...a.hist.buckets.keys()];
    const first = idx.length ? Math.min(...idx) : 0;
    const last = idx.length ? Math.max(...idx) : -1;
    const counts = Array.from({ length: last - first + 1 }, (_, i) => a.hist?.buckets.get(first + i) ?? 0);
    out.histogram = { zeros: a.hist.zeros, first, counts };
  }
  return out;
}

/**
 * A stored metric back as an accumulator.
 *
 * @example
 * joinAcc(total, loadAcc(file.metrics['http_req_duration']));
 */
export function loadAcc(m: StoredMetric): Acc {
  const a = emptyAcc(m.kind);
  Object.assign(a, { count: m.count, sum: m.sum, nonZero: m.nonZero, min: m.min ?? a.min, max: m.max ?? a.max });
  if (a.hist && m.histogram) {
    a.hist.zeros = m.histogram.zeros;
    m.histogram.counts.forEach((c, i) => {
      if (c > 0) a.hist?.buckets.set((m.histogram as StoredHistogram).first + i, c);
    });
    Object.assign(a.hist, { count: m.count, sum: m.sum, min: a.min, max: a.max });
  }
  return a;
}

const add = (into: Map<string, Acc>, key: string, kind: MetricKind, v: number, bucket: number | undefined) => {
  let a = into.get(key);
  if (!a) {
    a = emptyAcc(kind);
    into.set(key, a);
  }
  addTo(a, v, bucket);
};

/**
 * Records a run's samples into bounded histograms: per key for the whole run, and per interval for the keys the run
 * over time draws. Memory and the file it writes grow with the number of keys and the spread of the values, never with
 * the number of samples or (past MAX_INTERVALS) the run's length.
 *
 * @example
 * const rec = new HistogramRecorder();
 * rec.add('trend', Date.now(), 12.5, ['http_req_duration'], ['http_req_duration{op:chat.respond}']);
 * writeFileSync('histograms.json', JSON.stringify(rec.toFile()));
 */
export class HistogramRecorder {
  private readonly whole = new Map<string, Acc>();
  private intervals: (Map<string, Acc> | undefined)[] = [];
  private startMs: number | undefined;
  private intervalS: number;

  constructor(
    private readonly maxIntervals = MAX_INTERVALS,
    intervalS = 1,
  ) {
    this.intervalS = intervalS;
  }

  /** Adds one sample to each whole-run key and to each interval key of the interval its time falls in. */
  add(kind: MetricKind, timeMs: number, value: number, wholeKeys: readonly string[], intervalKeys: readonly string[]): void {
    // The bucket is found once for every key the sample goes in (the log is the costly part).
    const bucket = kind === 'trend' ? bucketFor(value) : undefined;
    for (const k of wholeKeys) add(this.whole, k, kind, value, bucket);
    if (intervalKeys.length === 0) return;
    this.startMs ??= Math.floor(timeMs / 1000) * 1000;
    let i = Math.max(0, Math.floor((timeMs - this.startMs) / (this.intervalS * 1000)));
    while (i >= this.maxIntervals) {
      this.coarsen();
      i = Math.floor(i / 2);
    }
    let at = this.intervals[i];
    if (!at) {
      at = new Map();
      this.intervals[i] = at;
    }
    for (const k of intervalKeys) add(at, k, kind, value, bucket);
  }

  /** Joins adjacent pairs of intervals and doubles the interval. */
  private coarsen(): void {
    const joined: (Map<string, Acc> | undefined)[] = [];
    this.intervals.forEach((m, i) => {
      if (!m) return;
      const into = joined[i >> 1] ?? new Map<string, Acc>();
      joined[i >> 1] = into;
      for (const [k, a] of m) {
        const b = into.get(k);
        if (b) joinAcc(b, a);
        else into.set(k, a);
      }
    });
    this.intervals = joined;
    this.intervalS *= 2;
  }

  /** What the recorder holds, as histograms.json keeps it. */
  toFile(): HistogramFile {
    return {
      format: HISTOGRAM_FORMAT,
      relative_error: RELATIVE_ERROR,
      started_ms: this.startMs ?? 0,
      interval_s: this.intervalS,
      metrics: Object.fromEntries([...this.whole].map(([k, a]) => [k, storeAcc(a)])),
      intervals: this.intervals.flatMap((m, i) =>
        m ? [{ t: i * this.intervalS, metrics: Object.fromEntries([...m].map(([k, a]) => [k, storeAcc(a)])) }] : [],
      ),
    };
  }
}

/** The metrics a run over time draws every time (src/load/timeline.ts reads the same names). */
const TIMELINE_METRICS = new Set(['http_reqs', 'iterations', 'dropped_iterations', 'vus', 'http_req_failed']);
const LATENCY = 'http_req_duration';

/**
 * The keys a sample is kept under per interval: the counts, VUs and error rate every page draws, the request latency
 * per operation (the `op` tag), and each key that has a threshold and that the sample belongs to.
 *
 * @example
 * intervalKeysOf('http_req_duration', { op: 'chat.respond' }, []); // ['http_req_duration{op:chat.respond}']
 */
export function intervalKeysOf(metric: string, tags: Readonly<Record<string, string>>, judged: readonly string[]): string[] {
  const keys = TIMELINE_METRICS.has(metric) ? [metric] : metric === LATENCY ? [tags.op ? `${LATENCY}{op:${tags.op}}` : LATENCY] : [];
  for (const k of judged) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/**
 * Whether a sample with these tags belongs to a summary key: the metric itself, or a sub-metric whose every tag it carries.
 *
 * @example
 * belongsTo('http_req_duration{op:chat.respond}', 'http_req_duration', { op: 'chat.respond', status: '200' }); // true
 */
export function belongsTo(key: string, metric: string, tags: Readonly<Record<string, string>>): boolean {
  if (key === metric) return true;
  if (!key.startsWith(`${metric}{`)) return false;
  let filter: Readonly<Record<string, string>> | undefined;
  try {
    filter = parseMetricKey(key).tags;
  } catch {
    return false;
  }
  return Object.entries(filter ?? {}).every(([k, v]) => tags[k] === v);
}
