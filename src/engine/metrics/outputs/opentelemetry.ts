// `--out opentelemetry` (k6 v1 also `experimental-opentelemetry`), /results-output/real-time/opentelemetry/: the run's
// samples pushed as OTLP metrics, over gRPC or HTTP, on the OpenTelemetry JavaScript SDK. "k6 converts all k6 metric
// types to an equivalent OTEL metric type, and all k6 tags to OTEL attributes": Counter → Float64Counter, Gauge →
// Float64ObservableGauge, Rate → "a single Int64Counter counter named metric_name with an attribute condition that can
// have two values: zero and nonzero" (or, with K6_OTEL_SINGLE_COUNTER_FOR_RATE=false, "two separate counters:
// metric_name.occurred and metric_name.total"), Trend → Float64Histogram.
//
// Samples are folded per (metric, tag set) as they come and handed to the SDK every K6_OTEL_FLUSH_INTERVAL ("How
// frequently to flush metrics from k6 metrics engine"), which exports every K6_OTEL_EXPORT_INTERVAL. An export that
// fails never stops the run: it is counted (outputs/delivery bookkeeping below) and said once in the log.

import { Metadata } from '@grpc/grpc-js';
import { type Attributes, type Counter, type Gauge, ValueType } from '@opentelemetry/api';
import { OTLPMetricExporter as GrpcExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as ProtobufExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  type CollectionResult,
  InstrumentType,
  MeterProvider,
  type MetricData,
  type MetricProducer,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import type { InstrumentDescriptor } from '@opentelemetry/sdk-metrics/build/src/InstrumentDescriptor.js';
// The SDK's own histogram aggregations, reached at their module path (sdk-metrics is pinned to one minor version): its
// instruments key every record by hashing the attributes, which a trend's thousands of samples a second cannot afford.
import { ExponentialHistogramAggregation, HistogramAggregation } from '@opentelemetry/sdk-metrics/build/src/view/Aggregation.js';
import { parseDuration } from '../../../core/duration.js';
import { BUILTIN_ENGINE_VERSION } from '../../../core/engine-version.js';
import type { MetricStore } from '../store.js';
import { type NetworkOutputContext, safeUrl } from './delivery.js';

/** How many samples reached the output's server, how many never will, and why the last failure failed. */
export interface Delivery {
  readonly sent: number;
  readonly dropped: number;
  readonly lastError: string | undefined;
}

/** The k6 exporter types (K6_OTEL_EXPORTER_TYPE, or K6_OTEL_EXPORTER_PROTOCOL's spelling of them). */
const EXPORTER_TYPES: Record<string, 'grpc' | 'http'> = { grpc: 'grpc', http: 'http', 'http/protobuf': 'http', 'http/json': 'http' };

/** The output's settings, from k6's K6_OTEL_* variables and dialtone's histogram choice. */
export interface OtelConfig {
  readonly exporter: 'grpc' | 'http';
  /** The full URL the exporter sends to: http:// when the exporter is insecure, else https://. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly prefix: string;
  readonly flushMs: number;
  readonly exportMs: number;
  readonly serviceName: string;
  readonly serviceVersion: string;
  readonly singleCounterForRate: boolean;
  /** Trends as exponential histograms of at most this many buckets, or as the SDK's explicit default buckets. */
  readonly histogram: { readonly kind: 'exponential'; readonly maxBuckets: number } | { readonly kind: 'explicit' };
}

const bool = (v: string | undefined, name: string, fallback: boolean): boolean => {
  if (v === undefined || v === '') return fallback;
  if (/^(true|1)$/i.test(v)) return true;
  if (/^(false|0)$/i.test(v)) return false;
  throw new Error(`${name}: '${v}' is not true or false`);
};

const duration = (v: string | undefined, name: string, fallback: number): number => {
  if (v === undefined || v === '') return fallback;
  let ms: number;
  try {
    ms = parseDuration(v);
  } catch {
    ms = Number.NaN;
  }
  if (!(ms > 0)) throw new Error(`${name}: '${v}' is not a positive duration (e.g. "1s", "500ms")`);
  return ms;
};

/** An endpoint as k6 takes it (host:port), made a URL; one that already has a scheme is kept as given. */
const urlOf = (endpoint: string, insecure: boolean, path = ''): string =>
  /^[a-z]+:\/\//i.test(endpoint) ? `${endpoint}${path}` : `${insecure ? 'http' : 'https'}://${endpoint}${path}`;

/**
 * K6_OTEL_HEADERS, "headers in the W3C Correlation-Context format without additional semi-colon delimited metadata
 * (i.e. "k1=v1,k2=v2")".
 */
function parseHeaders(v: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (v ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    // The value may be a secret: the error names the header, never what it holds.
    if (eq <= 0) throw new Error(`K6_OTEL_HEADERS: '${pair.split('=')[0]?.trim()}' has no value; write k1=v1,k2=v2`);
    headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return headers;
}

/**
 * The output's settings from the run's variables; a bad one throws one line naming it.
 *
 * @example
 * otelConfig({ K6_OTEL_EXPORTER_TYPE: 'http', K6_OTEL_HTTP_EXPORTER_INSECURE: 'true' }).url; // 'http://localhost:4318/v1/metrics'
 */
export function otelConfig(env: Readonly<Record<string, string | undefined>>): OtelConfig {
  const typeVar = env.K6_OTEL_EXPORTER_PROTOCOL ? 'K6_OTEL_EXPORTER_PROTOCOL' : 'K6_OTEL_EXPORTER_TYPE';
  const typeName = env[typeVar] || 'grpc';
  const exporter = EXPORTER_TYPES[typeName.toLowerCase()];
  if (!exporter) throw new Error(`${typeVar}: '${typeName}' is not an exporter type; use grpc or http`);
  const url =
    exporter === 'grpc'
      ? urlOf(env.K6_OTEL_GRPC_EXPORTER_ENDPOINT || 'localhost:4317', bool(env.K6_OTEL_GRPC_EXPORTER_INSECURE, 'K6_OTEL_GRPC_EXPORTER_INSECURE', false))
      : urlOf(
          env.K6_OTEL_HTTP_EXPORTER_ENDPOINT || 'localhost:4318',
          bool(env.K6_OTEL_HTTP_EXPORTER_INSECURE, 'K6_OTEL_HTTP_EXPORTER_INSECURE', false),
          env.K6_OTEL_HTTP_EXPORTER_URL_PATH || '/v1/metrics',
        );
  const kind = env.DIALTONE_OTEL_HISTOGRAM || 'exponential';
  if (kind !== 'exponential' && kind !== 'explicit') throw new Error(`DIALTONE_OTEL_HISTOGRAM: '${kind}' is not exponential or explicit`);
  const maxBuckets = Number(env.DIALTONE_OTEL_HISTOGRAM_BUCKETS || 160);
  if (!Number.isInteger(maxBuckets) || maxBuckets < 2 || maxBuckets > 16384)
    throw new Error(`DIALTONE_OTEL_HISTOGRAM_BUCKETS: '${env.DIALTONE_OTEL_HISTOGRAM_BUCKETS}' is not a whole number from 2 to 16384`);
  return {
    exporter,
    url,
    headers: parseHeaders(env.K6_OTEL_HEADERS),
    prefix: env.K6_OTEL_METRIC_PREFIX ?? '',
    flushMs: duration(env.K6_OTEL_FLUSH_INTERVAL, 'K6_OTEL_FLUSH_INTERVAL', 1000),
    exportMs: duration(env.K6_OTEL_EXPORT_INTERVAL, 'K6_OTEL_EXPORT_INTERVAL', 10_000),
    serviceName: env.K6_OTEL_SERVICE_NAME || 'k6',
    serviceVersion: env.K6_OTEL_SERVICE_VERSION || BUILTIN_ENGINE_VERSION,
    singleCounterForRate: bool(env.K6_OTEL_SINGLE_COUNTER_FOR_RATE, 'K6_OTEL_SINGLE_COUNTER_FOR_RATE', true),
    histogram: kind === 'explicit' ? { kind } : { kind, maxBuckets },
  };
}

/** The exporter of each type. */
const EXPORTERS: Record<OtelConfig['exporter'], (c: OtelConfig) => PushMetricExporter> = {
  // Protobuf bodies, as k6's HTTP exporter sends them (and as stores such as VictoriaMetrics require; JSON is refused).
  http: (c) => new ProtobufExporter({ url: c.url, headers: { ...c.headers }, timeoutMillis: Math.min(c.exportMs, 10_000) }),
  grpc: (c) => {
    // The gRPC exporter takes the headers as call metadata.
    const metadata = new Metadata();
    for (const [k, v] of Object.entries(c.headers)) metadata.set(k, v);
    return new GrpcExporter({ url: c.url, metadata, timeoutMillis: Math.min(c.exportMs, 10_000) });
  },
};

/**
 * The delivery bookkeeping of one output: samples handed to the SDK are pending until an export succeeds. Exports are
 * cumulative, so a later success delivers what an earlier failure did not; only what the last export could not send is
 * dropped.
 */
class DeliveryBook {
  private handed = 0;
  private sentUpTo = 0;
  private failures = 0;
  lastError: string | undefined;

  constructor(private readonly onFirstFailure: (message: string) => void) {}

  /** n more samples are in the SDK's instruments. */
  took(n: number): void {
    this.handed += n;
  }

  /** An export of everything handed so far starts; `settle` is called with its result. */
  exporting(): (error: Error | undefined) => void {
    const upTo = this.handed;
    return (error) => {
      if (!error) {
        this.sentUpTo = Math.max(this.sentUpTo, upTo);
        return;
      }
      this.lastError = error.message.split('\n')[0];
      if (this.failures++ === 0) this.onFirstFailure(this.lastError ?? 'unknown error');
    };
  }

  delivery(): Delivery {
    return { sent: this.sentUpTo, dropped: this.handed - this.sentUpTo, lastError: this.lastError };
  }
}

/** An exporter whose every export is counted in the book. */
function counted(inner: PushMetricExporter, book: DeliveryBook): PushMetricExporter {
  return {
    export: (metrics: ResourceMetrics, done) => {
      const settle = book.exporting();
      inner.export(metrics, (result) => {
        settle(result.code === 0 ? undefined : (result.error ?? new Error('export failed')));
        done(result);
      });
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
}

/** What one (metric, tag set) took since the last flush, folded as its metric type wants. */
interface Slot {
  sum: number;
  zeros: number;
  nonzeros: number;
  last: number;
  readonly values: number[];
  count: number;
  /** A trend's histogram, made at its first flush. */
  histogram?: { record(value: number): void };
}

/** One k6 metric's instruments and how a flush hands a slot to them. */
type Recorder = (slot: Slot, attrs: Attributes) => void;

/** How trends are folded: exponential histograms (OTLP's own, fine enough for a p95 to 1 %) or the SDK's default buckets. */
export const trendAggregation = (c: Pick<OtelConfig, 'histogram'>) =>
  c.histogram.kind === 'explicit' ? new HistogramAggregation() : new ExponentialHistogramAggregation(c.histogram.maxBuckets, true);
type TrendAggregator = ReturnType<ReturnType<typeof trendAggregation>['createAggregator']>;
type TrendAccumulation = ReturnType<TrendAggregator['createAccumulation']>;
/** What collect asks of either aggregator, over its own accumulations. */
interface Aggregator {
  createAccumulation(start: [number, number]): TrendAccumulation;
  merge(previous: TrendAccumulation, delta: TrendAccumulation): TrendAccumulation;
  toMetricData(d: InstrumentDescriptor, t: AggregationTemporality, points: [Attributes, TrendAccumulation][], end: [number, number]): MetricData | undefined;
}

/** A copy of an accumulation: an exponential one's own deep copy (a merge into an empty one may land a scale lower). */
const copyOf = (a: Aggregator, acc: TrendAccumulation): TrendAccumulation => ('clone' in acc ? acc.clone() : a.merge(acc, a.createAccumulation(acc.startTime)));

const NO_RESOURCE = resourceFromAttributes({});

/** Now as OpenTelemetry's [seconds, nanoseconds]. */
const hrNow = (): [number, number] => {
  const ms = performance.timeOrigin + performance.now();
  const s = Math.floor(ms / 1000);
  return [s, Math.round((ms - s * 1000) * 1e6)];
};

/**
 * The trends' histograms, handed to the reader as a MetricProducer beside the SDK's own instruments. Each (metric, tag
 * set) has its accumulation, found by the slot that holds it, so a sample is folded without the SDK's per-record
 * hashing of its attributes; the SDK's aggregator still folds and writes the data points. Cumulative unless the
 * exporter asks for deltas.
 */
export class TrendHistograms implements MetricProducer {
  private readonly series = new Map<string, { descriptor: InstrumentDescriptor; aggregator: TrendAggregator; points: [Attributes, TrendAccumulation][] }>();

  constructor(
    private readonly aggregation: ReturnType<typeof trendAggregation>,
    private readonly temporality: AggregationTemporality,
  ) {}

  /** A new histogram of metric `name` for one tag set. */
  open(name: string, unit: string, attrs: Attributes): { record(value: number): void } {
    let s = this.series.get(name);
    if (!s) {
      const descriptor = { name, description: '', unit, valueType: ValueType.DOUBLE, type: InstrumentType.HISTOGRAM, advice: {} };
      s = { descriptor, aggregator: this.aggregation.createAggregator(descriptor), points: [] };
      this.series.set(name, s);
    }
    const point: [Attributes, TrendAccumulation] = [attrs, s.aggregator.createAccumulation(hrNow())];
    s.points.push(point);
    return { record: (value) => point[1].record(value) };
  }

  async collect(): Promise<CollectionResult> {
    const end = hrNow();
    const metrics: MetricData[] = [];
    for (const s of this.series.values()) {
      // Each aggregator's type takes its own accumulations; the points here were made by this series' aggregator.
      const a = s.aggregator as unknown as Aggregator;
      // The export is encoded later, while samples still come: a cumulative export carries copies, as the SDK's does.
      const points: [Attributes, TrendAccumulation][] =
        this.temporality === AggregationTemporality.DELTA ? s.points : s.points.map(([attrs, acc]) => [attrs, copyOf(a, acc)]);
      const data = a.toMetricData(s.descriptor, this.temporality, points, end);
      if (data) metrics.push(data);
      if (this.temporality === AggregationTemporality.DELTA) for (const p of s.points) p[1] = s.aggregator.createAccumulation(end);
    }
    // No scope when there is nothing, as the SDK's own producer does: the reader then skips an empty export.
    const scopeMetrics = metrics.length === 0 ? [] : [{ scope: { name: 'k6' }, metrics }];
    // The reader keeps the SDK's own resource and takes only the scopes from a producer.
    return { resourceMetrics: { resource: NO_RESOURCE, scopeMetrics }, errors: [] };
  }
}

/**
 * Opens the OpenTelemetry output on the store. `ready` resolves at once: an unreachable collector is a failed export,
 * said in the log and counted, never a run that does not start.
 *
 * @example
 * const out = openOtelOutput('', store, { env: process.env, warn: console.warn });
 * // … the run …
 * await out.close(); out.delivery(); // { sent: 1200, dropped: 0, lastError: undefined }
 */
export function openOtelOutput(_arg: string, store: MetricStore, ctx: NetworkOutputContext) {
  const c = otelConfig(ctx.env);
  const book = new DeliveryBook((m) =>
    ctx.log('warn', `output opentelemetry: export to ${safeUrl(c.url)} failed (${m}); the run goes on, its samples are counted as dropped`),
  );
  const exporter = counted(EXPORTERS[c.exporter](c), book);
  const trends = new TrendHistograms(
    trendAggregation(c),
    exporter.selectAggregationTemporality?.(InstrumentType.HISTOGRAM) ?? AggregationTemporality.CUMULATIVE,
  );
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': c.serviceName, 'service.version': c.serviceVersion }),
    readers: [
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: c.exportMs,
        exportTimeoutMillis: Math.min(c.exportMs, 10_000),
        metricProducers: [trends],
      }),
    ],
  });
  const meter = provider.getMeter('k6');
  const recorders = new Map<string, Recorder>();
  const recorderOf = (metric: string): Recorder => {
    const decl = store.declOf(metric);
    const name = `${c.prefix}${metric}`;
    const unit = decl?.contains === 'time' ? 'ms' : decl?.contains === 'data' ? 'By' : undefined;
    const opts = unit ? { unit } : {};
    const r = RECORDERS[decl?.type ?? 'trend']({ meter, trends, single: c.singleCounterForRate }, name, opts);
    recorders.set(metric, r);
    return r;
  };
  const slots = new Map<string, (Slot | undefined)[]>();
  const dirty: [string, number, Slot][] = [];
  const attrs: (Attributes | undefined)[] = [];
  const off = store.onSample((metric, tagSetId, _t, value) => {
    let byTags = slots.get(metric);
    if (!byTags) {
      byTags = [];
      slots.set(metric, byTags);
    }
    let slot = byTags[tagSetId];
    if (!slot) {
      slot = { sum: 0, zeros: 0, nonzeros: 0, last: 0, values: [], count: 0 };
      byTags[tagSetId] = slot;
    }
    if (slot.count === 0) dirty.push([metric, tagSetId, slot]);
    slot.count++;
    slot.sum += value;
    slot.last = value;
    if (value === 0) slot.zeros++;
    else slot.nonzeros++;
    if (store.typeOf(metric) === 'trend') slot.values.push(value);
  });
  const flush = () => {
    let n = 0;
    for (const [metric, tagSetId, slot] of dirty) {
      let a = attrs[tagSetId];
      if (!a) {
        a = { ...store.tagsOf(tagSetId) };
        attrs[tagSetId] = a;
      }
      (recorders.get(metric) ?? recorderOf(metric))(slot, a);
      n += slot.count;
      slot.count = slot.sum = slot.zeros = slot.nonzeros = 0;
      slot.values.length = 0;
    }
    dirty.length = 0;
    book.took(n);
  };
  const timer = setInterval(flush, c.flushMs);
  timer.unref();
  return {
    ready: () => Promise.resolve(),
    delivery: () => ({ output: 'opentelemetry', where: safeUrl(c.url), ...book.delivery() }),
    close: async () => {
      off();
      clearInterval(timer);
      flush();
      // shutdown exports once more, everything to the end; a failure there is in the book, not thrown.
      await provider.shutdown().catch(() => {});
    },
  };
}

type Meter = ReturnType<MeterProvider['getMeter']>;
type InstrumentOptions = { unit?: string };
/** Where a metric's recorder records: the SDK's meter, or the trends' histograms; and how rates are counted. */
type RecordingTo = { readonly meter: Meter; readonly trends: TrendHistograms; readonly single: boolean };

/** Each k6 metric type's instruments, as k6's table maps them. */
const RECORDERS: Record<'counter' | 'gauge' | 'rate' | 'trend', (to: RecordingTo, name: string, o: InstrumentOptions) => Recorder> = {
  counter: ({ meter: m }, name, o) => {
    const counter: Counter = m.createCounter(name, { ...o, valueType: ValueType.DOUBLE });
    return (s, a) => counter.add(s.sum, a);
  },
  gauge: ({ meter: m }, name, o) => {
    const gauge: Gauge = m.createGauge(name, { ...o, valueType: ValueType.DOUBLE });
    return (s, a) => gauge.record(s.last, a);
  },
  rate: ({ meter: m, single }, name) => {
    if (single) {
      const counter = m.createCounter(name, { valueType: ValueType.INT });
      const withCondition = new WeakMap<Attributes, [Attributes, Attributes]>();
      return (s, a) => {
        let pair = withCondition.get(a);
        if (!pair) {
          pair = [
            { ...a, condition: 'zero' },
            { ...a, condition: 'nonzero' },
          ];
          withCondition.set(a, pair);
        }
        if (s.zeros > 0) counter.add(s.zeros, pair[0]);
        if (s.nonzeros > 0) counter.add(s.nonzeros, pair[1]);
      };
    }
    const occurred = m.createCounter(`${name}.occurred`, { valueType: ValueType.INT });
    const total = m.createCounter(`${name}.total`, { valueType: ValueType.INT });
    return (s, a) => {
      occurred.add(s.nonzeros, a);
      total.add(s.zeros + s.nonzeros, a);
    };
  },
  // Its values folded into the histogram of the slot's tag set, past the SDK's instruments (TrendHistograms says why).
  trend:
    ({ trends }, name, o) =>
    (s, a) => {
      s.histogram ??= trends.open(name, o.unit ?? '', a);
      for (const v of s.values) s.histogram.record(v);
    },
};
