// `--out experimental-prometheus-rw` (/results-output/real-time/prometheus-remote-write/): every time series (a metric
// and its tag set) aggregated since the run began and pushed every K6_PROMETHEUS_RW_PUSH_INTERVAL to a remote-write
// endpoint, encoded by remote-write.ts (protobuf + snappy). k6's mapping: "Counter | Counter |
// k6_*_total", "Rate | Gauge | k6_*_rate", a gauge as k6_*, and a trend as one gauge per stat of
// K6_PROMETHEUS_RW_TREND_STATS ("p(90),p(95),max transforms each trend metric into … k6_*_p90, k6_*_p95, k6_*_max");
// times in seconds, the base unit ("suffixed with the base unit of the sample value"). With
// K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM=true "each k6 trend metric maps to its corresponding Prometheus histogram
// metric" instead, a native histogram (native-histogram.ts), which Prometheus takes with --enable-feature=native-histograms.

import { Agent, fetch } from 'undici';
import { emptyHistogram, type LogHistogram, quantile, record } from '../../../core/log-histogram.js';
import type { MetricDecl } from '../../../core/metrics.js';
import { Sink } from '../sink.js';
import type { MetricStore } from '../store.js';
import { Delivery, envBool, envDuration, type NetworkOutput, type NetworkOutputContext, REQUEST_TIMEOUT_MS, safeUrl, Ticker } from './delivery.js';
import { NATIVE_SCHEMA, NativeHistogramSink, ZERO_THRESHOLD } from './native-histogram.js';
import { encodeWriteRequest, type RemoteSeries } from './remote-write.js';

export const PROMETHEUS_RW = 'experimental-prometheus-rw';

/** What the K6_PROMETHEUS_RW_* variables ask for. */
export interface PrometheusRwConfig {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly pushIntervalMs: number;
  readonly trendStats: readonly string[];
  /** K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: trends as native histograms, not as stats. */
  readonly nativeHistograms: boolean;
  readonly staleMarkers: boolean;
  readonly insecureSkipTlsVerify: boolean;
}

/** The variables k6 documents that the built-in engine does not honour: refused in one line rather than ignored. */
const UNSUPPORTED = [
  'K6_PROMETHEUS_RW_CLIENT_CERTIFICATE',
  'K6_PROMETHEUS_RW_CLIENT_CERTIFICATE_KEY',
  'K6_PROMETHEUS_RW_SIGV4_REGION',
  'K6_PROMETHEUS_RW_SIGV4_ACCESS_KEY',
  'K6_PROMETHEUS_RW_SIGV4_SECRET_KEY',
];

/** "a comma-separated list of stats functions: count, sum, min, max, avg, med, p(x)" */
const TREND_STAT = /^(count|sum|min|max|avg|med|p\((\d+(\.\d+)?)\))$/;

/**
 * Reads the output's configuration from the K6_PROMETHEUS_RW_* variables; a value it cannot honour is a one-line error.
 *
 * @example
 * prometheusRwConfig('', { K6_PROMETHEUS_RW_TREND_STATS: 'p(95),count' }).trendStats; // ['p(95)', 'count']
 */
export function prometheusRwConfig(arg: string, env: NetworkOutputContext['env']): PrometheusRwConfig {
  if (arg !== '') throw new Error(`--out ${PROMETHEUS_RW}=${arg}: this output takes no argument; set K6_PROMETHEUS_RW_SERVER_URL`);
  const unsupported = UNSUPPORTED.find((n) => env[n]);
  if (unsupported) throw new Error(`${unsupported}: the built-in engine's ${PROMETHEUS_RW} output does not support it; use --engine k6`);
  const url = env.K6_PROMETHEUS_RW_SERVER_URL || 'http://localhost:9090/api/v1/write';
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new Error(`K6_PROMETHEUS_RW_SERVER_URL: give an http(s) URL, e.g. http://localhost:9090/api/v1/write`);
  const trendStats = (env.K6_PROMETHEUS_RW_TREND_STATS || 'p(99)').split(',').map((s) => s.trim());
  const bad = trendStats.find((s) => {
    const m = TREND_STAT.exec(s);
    return !m || (m[2] !== undefined && Number(m[2]) > 100);
  });
  if (bad !== undefined) throw new Error(`K6_PROMETHEUS_RW_TREND_STATS: '${bad}' is not one of count, sum, min, max, avg, med, p(x)`);
  return {
    url,
    headers: headersOf(env),
    username: env.K6_PROMETHEUS_RW_USERNAME || undefined,
    password: env.K6_PROMETHEUS_RW_PASSWORD || undefined,
    labels: pairs(env.K6_PROMETHEUS_RW_LABELS, '=', 'K6_PROMETHEUS_RW_LABELS'),
    pushIntervalMs: envDuration(env, 'K6_PROMETHEUS_RW_PUSH_INTERVAL', 5000),
    trendStats,
    nativeHistograms: envBool(env, 'K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM', false),
    staleMarkers: envBool(env, 'K6_PROMETHEUS_RW_STALE_MARKERS', false),
    insecureSkipTlsVerify: envBool(env, 'K6_PROMETHEUS_RW_INSECURE_SKIP_TLS_VERIFY', false),
  };
}

/** "K6_PROMETHEUS_RW_HEADERS_<header-key>" and "K6_PROMETHEUS_RW_HTTP_HEADERS=key1:value1,key2:value2"; a bearer token. */
function headersOf(env: NetworkOutputContext['env']): Record<string, string> {
  const prefix = 'K6_PROMETHEUS_RW_HEADERS_';
  const headers: Record<string, string> = { ...pairs(env.K6_PROMETHEUS_RW_HTTP_HEADERS, ':', 'K6_PROMETHEUS_RW_HTTP_HEADERS') };
  for (const [k, v] of Object.entries(env)) if (k.startsWith(prefix) && k.length > prefix.length && v) headers[k.slice(prefix.length)] = v;
  if (env.K6_PROMETHEUS_RW_BEARER_TOKEN) headers.Authorization = `Bearer ${env.K6_PROMETHEUS_RW_BEARER_TOKEN}`;
  return headers;
}

/** `k1<sep>v1,k2<sep>v2` as a record; empty names or values are left out ("k6 ignores labels with an empty name or value"). */
function pairs(text: string | undefined, sep: string, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf(sep);
    if (at < 0) throw new Error(`${name}: '${part}' is not key${sep}value`);
    const k = part.slice(0, at).trim();
    const v = part.slice(at + sep.length).trim();
    if (k !== '' && v !== '' && k !== '__name__') out[k] = v;
  }
  return out;
}

/**
 * A trend stat as a name suffix: p(95) → p95, p(99.9) → p999.
 *
 * @example
 * statSuffix('p(99.9)'); // 'p999'
 */
export function statSuffix(stat: string): string {
  const p = /^p\((.+)\)$/.exec(stat);
  return p ? `p${(p[1] as string).replace('.', '')}` : stat;
}

/** A Prometheus label or metric name: letters, digits and underscores, not starting with a digit. */
const promName = (s: string): string => s.replace(/[^a-zA-Z0-9_]/g, '_').replace(/^(\d)/, '_$1');

/**
 * One time series of the run: its labels once, its aggregate since the start, whether a sample came since the last
 * push. A trend keeps a bounded histogram, not every value as k6 does ("It uses a memory-expensive k6 data
 * structure"): a nightly's series would otherwise hold a second copy of every duration the store already holds; its
 * percentiles are within 1 % of the exact ones (src/core/log-histogram.ts), min, max, count and sum exact.
 */
interface Series {
  readonly name: string;
  readonly decl: MetricDecl;
  readonly labels: Record<string, string>;
  /** Counters, gauges and rates (a Sink keeps no values for them). */
  readonly sink: Sink;
  /** Trends, for their stats. */
  readonly hist: LogHistogram;
  /** Trends as native histograms, in the unit they are sent in. */
  readonly native: NativeHistogramSink | undefined;
  touched: boolean;
}

/** A trend stat read from its histogram: k6's names (med, avg, p(N), …). */
function trendStat(h: LogHistogram, stat: string): number | undefined {
  if (h.count === 0) return undefined;
  if (stat === 'min') return h.min;
  if (stat === 'max') return h.max;
  if (stat === 'avg') return h.sum / h.count;
  if (stat === 'med') return quantile(h, 0.5);
  const p = /^p\((.+)\)$/.exec(stat);
  return p ? quantile(h, Number(p[1]) / 100) : undefined;
}

type Timeseries = RemoteSeries;

/** A time trend's native histogram is named with its base unit: k6_http_req_duration_seconds. */
const unitSuffix = (decl: MetricDecl) => (decl.contains === 'time' ? '_seconds' : '');

/** The values a series pushes at time `t`, under k6's names; times in seconds. */
function samplesOf(s: Series, trendStats: readonly string[], t: number): Timeseries[] {
  const scale = s.decl.contains === 'time' ? 1 / 1000 : 1;
  if (s.native) return [{ labels: { ...s.labels, __name__: `k6_${s.name}${unitSuffix(s.decl)}` }, histograms: [s.native.toProto(t)] }];
  const one = (suffix: string, value: number | undefined): Timeseries[] =>
    value === undefined ? [] : [{ labels: { ...s.labels, __name__: `k6_${s.name}${suffix}` }, samples: [{ value, timestamp: t }] }];
  switch (s.decl.type) {
    case 'counter':
      return one('_total', s.sink.sum);
    case 'gauge':
      return one('', s.sink.count > 0 ? s.sink.last * scale : undefined);
    case 'rate':
      return one('_rate', s.sink.count > 0 ? s.sink.nonZero / s.sink.count : undefined);
    case 'trend':
      return trendStats.flatMap((stat) => {
        if (stat === 'count') return one('_count', s.hist.count);
        if (stat === 'sum') return one('_sum', s.hist.sum * scale);
        const v = trendStat(s.hist, stat);
        return one(`_${statSuffix(stat)}`, v === undefined ? undefined : v * scale);
      });
  }
}

/** Prometheus's stale marker, a NaN of its own bit pattern (value.StaleNaN): "marks all the seen time series as stale". */
const STALE_NAN = new Float64Array(new BigUint64Array([0x7ff0000000000002n]).buffer)[0] as number;

/** A series's stale marker: StaleNaN as its value, or for a native histogram as its sum (Prometheus reads either). */
function staleOf(ts: Timeseries, t: number): Timeseries {
  if (!ts.histograms) return { labels: ts.labels, samples: [{ value: STALE_NAN, timestamp: t }] };
  const empty = { count: 0, sum: STALE_NAN, schema: NATIVE_SCHEMA, zeroThreshold: ZERO_THRESHOLD, zeroCount: 0, positiveSpans: [], positiveDeltas: [] };
  return { labels: ts.labels, histograms: [{ ...empty, timestamp: t }] };
}

/**
 * Opens the output on the store: from now on every sample is aggregated into its series, and the series pushed on every
 * interval and once more at close (then marked stale when K6_PROMETHEUS_RW_STALE_MARKERS asks).
 *
 * @example
 * const out = openPrometheusRwOutput('', store, { env: process.env, log });
 * // … the run …
 * await out.close(); out.delivery(); // { sent: 5120, dropped: 0, … }
 */
export function openPrometheusRwOutput(arg: string, store: MetricStore, ctx: NetworkOutputContext): NetworkOutput {
  const cfg = prometheusRwConfig(arg, ctx.env);
  const delivery = new Delivery(PROMETHEUS_RW, safeUrl(cfg.url), ctx.log);
  const dispatcher = cfg.insecureSkipTlsVerify ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
  const byMetric = new Map<string, (Series | undefined)[]>();
  const all: Series[] = [];
  let pending = 0;
  const seriesOf = (metric: string, tagSetId: number): Series | undefined => {
    const decl = store.declOf(metric);
    if (!decl) return undefined;
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(store.tagsOf(tagSetId))) if (v !== '') labels[promName(k)] = v;
    const sink = new Sink(decl.type === 'trend' ? 'counter' : decl.type);
    const native = decl.type === 'trend' && cfg.nativeHistograms ? new NativeHistogramSink() : undefined;
    const s: Series = { name: promName(metric), decl, labels, sink, hist: emptyHistogram(), native, touched: false };
    const row = byMetric.get(metric) ?? [];
    row[tagSetId] = s;
    byMetric.set(metric, row);
    all.push(s);
    return s;
  };
  const off = store.onSample((metric, tagSetId, _t, value) => {
    const s = byMetric.get(metric)?.[tagSetId] ?? seriesOf(metric, tagSetId);
    if (!s) return;
    if (s.native) s.native.add(s.decl.contains === 'time' ? value / 1000 : value);
    else if (s.decl.type === 'trend') record(s.hist, value);
    else s.sink.add(value);
    s.touched = true;
    pending++;
  });
  const auth = cfg.username ? { Authorization: `Basic ${Buffer.from(`${cfg.username}:${cfg.password ?? ''}`).toString('base64')}` } : {};
  // The remote write spec's headers; the user's own (K6_PROMETHEUS_RW_HEADERS_*) last, so they may replace any.
  const headers = {
    'Content-Type': 'application/x-protobuf',
    'Content-Encoding': 'snappy',
    'X-Prometheus-Remote-Write-Version': '0.1.0',
    ...auth,
    ...cfg.headers,
  };
  const push = (series: Timeseries[]) => async () => {
    const r = await fetch(cfg.url, {
      method: 'POST',
      headers,
      body: encodeWriteRequest(series, cfg.labels),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      dispatcher,
    });
    const text = await r.text();
    if (r.status < 200 || r.status > 299) throw new Error(`HTTP ${r.status} ${r.statusText}${text.trim() ? `: ${text.trim()}` : ''}`);
  };
  const flush = async (): Promise<void> => {
    const t = Date.now();
    const series = all
      .filter((s) => s.touched)
      .flatMap((s) => {
        s.touched = false;
        return samplesOf(s, cfg.trendStats, t);
      });
    const samples = pending;
    pending = 0;
    if (series.length > 0) await delivery.send(samples, push(series));
  };
  const ticker = new Ticker(cfg.pushIntervalMs, flush);
  return {
    ready: () => Promise.resolve(),
    delivery: () => delivery.report(),
    close: async () => {
      off();
      await ticker.stop();
      if (cfg.staleMarkers && all.length > 0) {
        const t = Date.now() + 1;
        const stale = all.flatMap((s) => samplesOf(s, cfg.trendStats, t).map((ts) => staleOf(ts, t)));
        await delivery.send(0, push(stale));
      }
      await delivery.drain();
      await dispatcher?.close();
    },
  };
}
