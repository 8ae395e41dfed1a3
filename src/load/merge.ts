import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { HISTOGRAM_FORMAT, type HistogramFile, loadAcc } from '../core/histogram-series.js';
import { emptyHistogram, type LogHistogram, mergeInto, quantile, record } from '../core/log-histogram.js';
import { percentile } from '../core/percentile.js';
import type { K6Metric, K6Summary } from '../core/summary.js';
import { UsageError } from '../errors.js';
import { HISTOGRAMS_FILE } from './extras.js';
import type { LoadResult } from './page.js';

type Kind = 'trend' | 'counter' | 'rate' | 'gauge';
/** A submetric: its full name (`http_req_duration{op:chat.respond}`) and the tags a sample must carry. */
interface Sub {
  readonly name: string;
  readonly tags: Readonly<Record<string, string>>;
}

/**
 * Every sample of one (sub)metric across all segments: a trend's log histogram (percentiles within the histograms'
 * relative error), or, for an exact merge from raw samples, all its values.
 */
interface Acc {
  kind: Kind;
  values: number[];
  hist?: LogHistogram;
  sum: number;
  count: number;
  nonZero: number;
}

const DEFAULT_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

/** Parses a summary key `name{k:v,k2:v2}` into its submetric, or undefined for a plain metric. */
function subOf(key: string): { parent: string; sub: Sub } | undefined {
  const m = /^([^{]+)\{(.+)\}$/.exec(key);
  if (!m) return undefined;
  const tags = Object.fromEntries((m[2] as string).split(',').map((kv) => [kv.slice(0, kv.indexOf(':')), kv.slice(kv.indexOf(':') + 1)]));
  return { parent: m[1] as string, sub: { name: key, tags } };
}

const kindOfSummary = (m: K6Metric): Kind =>
  typeof m['p(95)'] === 'number' || typeof m.med === 'number' || typeof m.avg === 'number'
    ? 'trend'
    : typeof m.passes === 'number'
      ? 'rate'
      : typeof m.count === 'number'
        ? 'counter'
        : 'gauge';

/** One segment's files: its k6 summary, its result, and the raw samples (k6 JSON output, or CSV) or its histograms. */
export interface SegmentFiles {
  readonly dir: string;
  readonly summary: K6Summary;
  readonly result: LoadResult;
  /** The raw samples; undefined when the segment kept its histograms only. */
  readonly raw: string | undefined;
  /** histograms.json, when the segment wrote one. */
  readonly histograms?: string | undefined;
}

/** Reads a segment directory; a directory with neither raw samples nor histograms is a usage error naming what is missing. */
export function readSegment(dir: string): SegmentFiles {
  const raw = ['raw.json.gz', 'raw.json', 'raw.csv.gz', 'raw.csv'].map((f) => join(dir, f)).find(existsSync);
  for (const f of ['summary.json', 'result.json'])
    if (!existsSync(join(dir, f))) throw new UsageError(`merge: ${dir}: no ${f} (give the report directory of a segment run, e.g. reports/load/chat-turns)`);
  const format = histogramFormat(join(dir, HISTOGRAMS_FILE));
  // The first histograms.json (whole-run buckets, no format) is read no more: its segment's raw samples stand in for it.
  const histograms = format === HISTOGRAM_FORMAT ? join(dir, HISTOGRAMS_FILE) : undefined;
  if (!raw && !histograms)
    throw new UsageError(
      format === undefined
        ? `merge: ${dir}: no raw samples (raw.json.gz, raw.json or raw.csv) and no ${HISTOGRAMS_FILE}; run the segment with --segment i/N`
        : `merge: ${dir}: its ${HISTOGRAMS_FILE} is of an older dialtone and it kept no raw samples; run the segment again`,
    );
  return {
    dir,
    raw,
    ...(histograms ? { histograms } : {}),
    summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as K6Summary,
    result: JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as LoadResult,
  };
}

/** The format a histograms file names ('' for the first one, which named none), or undefined when there is none. */
function histogramFormat(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { format?: string }).format ?? '';
  } catch {
    return '';
  }
}

function lines(path: string) {
  const stream = createReadStream(path);
  return createInterface({ input: path.endsWith('.gz') ? stream.pipe(createGunzip()) : stream, crlfDelay: Number.POSITIVE_INFINITY });
}

/** Yields [metric, value, tags] for every sample of a k6 JSON or CSV output file. */
async function* samples(path: string): AsyncGenerator<[string, number, Record<string, string>]> {
  if (/\.json(\.gz)?$/.test(path)) {
    for await (const line of lines(path)) {
      if (!line.includes('"Point"')) continue;
      const p = JSON.parse(line) as { metric: string; data: { value: number; tags?: Record<string, string> | null } };
      yield [p.metric, p.data.value, p.data.tags ?? {}];
    }
    return;
  }
  let header: string[] | undefined;
  for await (const line of lines(path)) {
    const cells = line.split(',');
    if (!header) {
      header = cells;
      continue;
    }
    const tags: Record<string, string> = {};
    header.forEach((h, i) => {
      const c = cells[i];
      if (!c || ['metric_name', 'timestamp', 'metric_value', 'extra_tags', 'metadata'].includes(h)) return;
      tags[h] = c;
    });
    for (const kv of (cells[header.indexOf('extra_tags')] ?? '').split('&').filter(Boolean)) tags[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
    yield [cells[0] as string, Number(cells[2]), tags];
  }
}

const THRESHOLD = /^\s*(p\(\d+(?:\.\d+)?\)|avg|min|max|med|rate|count|value)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;
const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '===': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

/**
 * Merges segment results: every trend's statistics and percentiles from the segments' histograms joined (within their
 * relative error; never an average of percentiles), or exactly from the union of the raw samples when `exact` is asked
 * and every segment kept them, or when no segment wrote histograms; counters and rates from summed counts, and each
 * threshold judged again on the merged figures. Returns a summary in k6's --summary-export shape.
 *
 * @example
 * const summary = await mergeSegments(['m1/load/chat-turns', 'm2/load/chat-turns'].map(readSegment));
 * const exact = await mergeSegments(segs, { exact: true }); // from raw.json.gz, kept with --raw-samples
 */
export async function mergeSegments(segs: readonly SegmentFiles[], options: { readonly exact?: boolean } = {}): Promise<K6Summary> {
  const { accs, thresholds, stats, gauges } = await accumulate(segs, options.exact === true);
  // Segments run side by side: the merged run lasted as long as its longest segment.
  const seconds = Math.max(...segs.map((s) => elapsedSeconds(s.summary) ?? s.result.duration_ms / 1000));
  const metrics: Record<string, K6Metric> = {};
  for (const [key, a] of accs) {
    const sorted = a.kind === 'trend' && !a.hist ? a.values.sort((x, y) => x - y) : [];
    const pct = (p: number) => (a.hist ? quantile(a.hist, p) : percentile(sorted, p));
    const stat = (k: string): number | undefined => {
      if (a.kind === 'trend') {
        const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(k);
        if (p) return pct(Number(p[1]) / 100);
        return { avg: a.sum / a.count, min: a.hist ? a.hist.min : sorted[0], max: a.hist ? a.hist.max : sorted.at(-1), med: pct(0.5), count: a.count }[k];
      }
      if (a.kind === 'counter') return { count: a.sum, rate: a.sum / seconds }[k];
      return { rate: a.nonZero / a.count, value: a.nonZero / a.count, passes: a.nonZero, fails: a.count - a.nonZero }[k];
    };
    const keys = a.kind === 'trend' ? (stats.get(key) ?? DEFAULT_STATS) : a.kind === 'counter' ? ['count', 'rate'] : ['passes', 'fails', 'value'];
    const m: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, stat(k)]));
    const ts = [...(thresholds.get(key) ?? [])];
    if (ts.length) {
      m.thresholds = Object.fromEntries(
        ts.map((t) => {
          const x = THRESHOLD.exec(t);
          const v = x ? stat(x[1] as string) : undefined;
          // k6 records true when a threshold FAILED; one it cannot re-judge keeps any segment's failure.
          const failed =
            x && v !== undefined ? !COMPARE[x[2] as string]?.(v, Number(x[3])) : segs.some((s) => s.summary.metrics[key]?.thresholds?.[t] === true);
          return [t, failed];
        }),
      );
    }
    metrics[key] = m as K6Metric;
  }
  // Gauges (VUs) are not in the raw samples' sum: the merged value is the segments' total.
  for (const [key, ms] of gauges) {
    const total = (k: string) => ms.reduce((acc, m) => acc + (typeof m[k] === 'number' ? (m[k] as number) : 0), 0);
    metrics[key] = { value: total('value'), min: total('min'), max: total('max') };
  }
  return { metrics };
}

/**
 * Every (sub)metric of the segments accumulated: in log histograms (a segment's histograms.json joined as it is, the raw
 * samples of one without it folded in), or exactly from the raw samples (see mergeSegments).
 */
async function accumulate(segs: readonly Pick<SegmentFiles, 'summary' | 'raw' | 'histograms'>[], exactAsked: boolean) {
  const kinds = new Map<string, Kind>();
  const stats = new Map<string, string[]>();
  const thresholds = new Map<string, Set<string>>();
  const subsOf = new Map<string, Sub[]>();
  const gauges = new Map<string, K6Metric[]>();
  for (const s of segs) {
    for (const [key, m] of Object.entries(s.summary.metrics)) {
      kinds.set(key, kindOfSummary(m));
      const keys = Object.keys(m).filter((k) => k !== 'thresholds');
      if (kindOfSummary(m) === 'trend') stats.set(key, [...new Set([...(stats.get(key) ?? []), ...keys])]);
      if (kindOfSummary(m) === 'gauge') gauges.set(key, [...(gauges.get(key) ?? []), m]);
      for (const t of Object.keys(m.thresholds ?? {})) thresholds.set(key, new Set([...(thresholds.get(key) ?? []), t]));
      const sub = subOf(key);
      if (sub && !subsOf.get(sub.parent)?.some((x) => x.name === key)) subsOf.set(sub.parent, [...(subsOf.get(sub.parent) ?? []), sub.sub]);
    }
  }
  // Exact from the raw samples when asked, or when no segment wrote histograms (an older segment, a CSV output).
  const exact = segs.every((s) => s.raw !== undefined) && (exactAsked || !segs.some((s) => s.histograms !== undefined));
  const accs = new Map<string, Acc>();
  const add = (key: string, kind: Kind, v: number) => {
    const a = accs.get(key) ?? { kind, values: [], sum: 0, count: 0, nonZero: 0, ...(kind === 'trend' && !exact ? { hist: emptyHistogram() } : {}) };
    accs.set(key, a);
    if (a.hist) record(a.hist, v);
    else if (kind === 'trend') a.values.push(v);
    a.sum += v;
    a.count++;
    if (v !== 0) a.nonZero++;
  };
  for (const s of segs) {
    if (!exact && s.histograms !== undefined) {
      joinStored(accs, JSON.parse(readFileSync(s.histograms, 'utf8')) as HistogramFile);
      continue;
    }
    for await (const [metric, value, tags] of samples(s.raw as string)) {
      const kind = kinds.get(metric) ?? 'trend';
      if (kind === 'gauge') continue;
      add(metric, kind, value);
      for (const sub of subsOf.get(metric) ?? []) if (Object.entries(sub.tags).every(([k, v]) => tags[k] === v)) add(sub.name, kind, value);
    }
  }
  return { accs, thresholds, stats, gauges };
}

/** Adds a segment's stored histograms, counts and sums into the accumulators (gauges come from the summaries). */
function joinStored(accs: Map<string, Acc>, h: HistogramFile): void {
  for (const [key, m] of Object.entries(h.metrics)) {
    if (m.kind === 'gauge') continue;
    const a = accs.get(key) ?? { kind: m.kind, values: [], sum: 0, count: 0, nonZero: 0, ...(m.kind === 'trend' ? { hist: emptyHistogram() } : {}) };
    accs.set(key, a);
    a.sum += m.sum;
    a.count += m.count;
    a.nonZero += m.nonZero;
    const from = loadAcc(m).hist;
    if (a.hist && from) mergeInto(a.hist, from);
  }
}

/** A segment's own run length: k6 computes every counter's rate as count / elapsed seconds. */
function elapsedSeconds(s: K6Summary): number | undefined {
  for (const m of Object.values(s.metrics)) {
    if (typeof m.count === 'number' && typeof m.rate === 'number' && m.rate > 0) return m.count / m.rate;
  }
  return undefined;
}
