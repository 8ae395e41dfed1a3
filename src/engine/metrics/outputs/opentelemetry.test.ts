// The output's settings from k6's K6_OTEL_* variables (/results-output/real-time/opentelemetry/, "Configuration").
// What reaches a real store is tested in tests/otel-output.test.ts.
import {
  type AggregationOption,
  AggregationTemporality,
  AggregationType,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { parseOutArg } from '../outputs.js';
import { type OtelConfig, otelConfig, TrendHistograms, trendAggregation } from './opentelemetry.js';

describe('otelConfig', () => {
  it("takes k6's defaults: gRPC to localhost:4317 over TLS, service k6, flush every 1s, export every 10s, one counter per rate", () => {
    // "K6_OTEL_EXPORTER_TYPE: Metric exporter type. Default is grpc." "K6_OTEL_FLUSH_INTERVAL … Default is 1s."
    // "K6_OTEL_EXPORT_INTERVAL … Default is 10s." "K6_OTEL_SERVICE_NAME … Default value is k6."
    const c = otelConfig({});
    expect(c).toMatchObject({ exporter: 'grpc', url: 'https://localhost:4317', prefix: '', flushMs: 1000, exportMs: 10_000 });
    expect(c).toMatchObject({ serviceName: 'k6', singleCounterForRate: true, headers: {} });
  });

  it('builds the HTTP URL from endpoint, path and insecure, as K6_OTEL_HTTP_EXPORTER_* give them', () => {
    expect(otelConfig({ K6_OTEL_EXPORTER_TYPE: 'http' }).url).toBe('https://localhost:4318/v1/metrics');
    const env = {
      K6_OTEL_EXPORTER_TYPE: 'http',
      K6_OTEL_HTTP_EXPORTER_ENDPOINT: '127.0.0.1:8428',
      K6_OTEL_HTTP_EXPORTER_URL_PATH: '/opentelemetry/v1/metrics',
      K6_OTEL_HTTP_EXPORTER_INSECURE: 'true',
    };
    expect(otelConfig(env).url).toBe('http://127.0.0.1:8428/opentelemetry/v1/metrics');
    expect(otelConfig({ K6_OTEL_GRPC_EXPORTER_ENDPOINT: 'collector:4317', K6_OTEL_GRPC_EXPORTER_INSECURE: 'true' }).url).toBe('http://collector:4317');
    // k6 v1's K6_OTEL_EXPORTER_PROTOCOL names the same choice.
    expect(otelConfig({ K6_OTEL_EXPORTER_PROTOCOL: 'http/protobuf' }).exporter).toBe('http');
  });

  it('reads K6_OTEL_HEADERS as k1=v1,k2=v2, the prefix, the intervals and the service', () => {
    const c = otelConfig({
      K6_OTEL_HEADERS: 'Authorization=Bearer%20t0k,X-Scope-OrgID=team',
      K6_OTEL_METRIC_PREFIX: 'k6_',
      K6_OTEL_FLUSH_INTERVAL: '500ms',
      K6_OTEL_EXPORT_INTERVAL: '1m',
      K6_OTEL_SERVICE_NAME: 'nightly',
      K6_OTEL_SERVICE_VERSION: '1.4',
      K6_OTEL_SINGLE_COUNTER_FOR_RATE: 'false',
    });
    expect(c.headers).toEqual({ Authorization: 'Bearer t0k', 'X-Scope-OrgID': 'team' });
    expect(c).toMatchObject({ prefix: 'k6_', flushMs: 500, exportMs: 60_000, serviceName: 'nightly', serviceVersion: '1.4', singleCounterForRate: false });
  });

  it('refuses a bad setting with one line that names the variable and never shows a header value', () => {
    expect(() => otelConfig({ K6_OTEL_EXPORTER_TYPE: 'udp' })).toThrow(/^K6_OTEL_EXPORTER_TYPE: 'udp' is not an exporter type; use grpc or http$/);
    expect(() => otelConfig({ K6_OTEL_FLUSH_INTERVAL: 'soon' })).toThrow(/^K6_OTEL_FLUSH_INTERVAL: 'soon' is not a positive duration/);
    expect(() => otelConfig({ K6_OTEL_HTTP_EXPORTER_INSECURE: 'maybe', K6_OTEL_EXPORTER_TYPE: 'http' })).toThrow(/^K6_OTEL_HTTP_EXPORTER_INSECURE/);
    expect(() => otelConfig({ K6_OTEL_HEADERS: 'Authorization' })).toThrow(/^K6_OTEL_HEADERS: 'Authorization' has no value/);
    expect(() => otelConfig({ DIALTONE_OTEL_HISTOGRAM_BUCKETS: '1' })).toThrow(/^DIALTONE_OTEL_HISTOGRAM_BUCKETS/);
  });
});

describe('parseOutArg for the OpenTelemetry output', () => {
  it('takes opentelemetry and experimental-opentelemetry without a file, as k6 does', () => {
    // "You can use the --out opentelemetry option"; k6 v0.53 to v1 named it --out experimental-opentelemetry.
    expect(parseOutArg('opentelemetry')).toEqual({ type: 'opentelemetry', path: '' });
    expect(parseOutArg('experimental-opentelemetry')).toEqual({ type: 'experimental-opentelemetry', path: '' });
  });
});

describe('TrendHistograms', () => {
  const tags = [
    { op: 'chat.respond', status: '200' },
    { op: 'chat.respond', status: '429' },
  ];
  const values = [
    [0.4, 1.5, 2.25, 2.5, 180],
    [3, 3, 7.75],
  ];

  /** Round r's values of tag set i: the base values scaled, so the range widens and the histogram rescales. */
  const round = (r: number, i: number) => (values[i] ?? []).map((v) => v * (r + 1));

  /** Values through the SDK's own histogram instrument, collected once, as the SDK would export them. */
  async function throughSdk(histogram: OtelConfig['histogram'], valuesOf: (i: number) => number[]): Promise<MetricData[]> {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const aggregation: AggregationOption =
      histogram.kind === 'explicit'
        ? {
            type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM,
            options: { boundaries: [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000] },
          }
        : { type: AggregationType.EXPONENTIAL_HISTOGRAM, options: { maxSize: histogram.maxBuckets, recordMinMax: true } };
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ views: [{ instrumentName: 't', aggregation }], readers: [reader] });
    const h = provider.getMeter('k6').createHistogram('t', { unit: 'ms' });
    tags.forEach((t, i) => {
      for (const v of valuesOf(i)) h.record(v, t);
    });
    await reader.forceFlush();
    await provider.shutdown();
    return (
      exporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics.flatMap((s) => s.metrics) ?? []
    );
  }

  async function throughProducer(histogram: OtelConfig['histogram'], temporality: AggregationTemporality, rounds: number): Promise<MetricData[][]> {
    const trends = new TrendHistograms(trendAggregation({ histogram }), temporality);
    const series = tags.map((t) => trends.open('t', 'ms', t));
    const out: MetricData[][] = [];
    for (let r = 0; r < rounds; r++) {
      series.forEach((s, i) => {
        for (const v of round(r, i)) s.record(v);
      });
      out.push((await trends.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics));
    }
    return out;
  }

  /** What an export carries of a metric: its type, and each data point's attributes and value. */
  const carried = (ms: MetricData[]) =>
    ms.map((d) => ({ name: d.descriptor.name, unit: d.descriptor.unit, type: d.dataPointType, points: d.dataPoints.map((p) => [p.attributes, p.value]) }));

  it.each([
    ['exponential', { kind: 'exponential', maxBuckets: 160 }],
    ['exponential', { kind: 'exponential', maxBuckets: 4 }],
    ['explicit', { kind: 'explicit' }],
  ] as const)(
    "exports cumulative %s histograms (%o) that carry, collection after collection, what the SDK's own instrument does given every value so far",
    async (_, histogram) => {
      const ours = await throughProducer(histogram, AggregationTemporality.CUMULATIVE, 3);
      for (let r = 0; r < 3; r++) {
        const sdk = await throughSdk(histogram, (i) => [0, 1, 2].filter((k) => k <= r).flatMap((k) => round(k, i)));
        expect(carried(ours[r] ?? [])).toEqual(carried(sdk));
        expect(ours[r]?.[0]?.aggregationTemporality).toBe(AggregationTemporality.CUMULATIVE);
      }
      expect(ours[2]?.[0]?.dataPoints).toHaveLength(2);
    },
  );

  it.each([
    ['exponential', { kind: 'exponential', maxBuckets: 160 }],
    ['explicit', { kind: 'explicit' }],
  ] as const)('exports delta %s histograms (%o) that carry only what came since the last collection', async (_, histogram) => {
    const ours = await throughProducer(histogram, AggregationTemporality.DELTA, 3);
    for (let r = 0; r < 3; r++) {
      expect(carried(ours[r] ?? [])).toEqual(carried(await throughSdk(histogram, (i) => round(r, i))));
      expect(ours[r]?.[0]?.aggregationTemporality).toBe(AggregationTemporality.DELTA);
    }
  });

  it('gives no scope at all before any trend has a value, so the reader skips an empty export as it does for its own instruments', async () => {
    const trends = new TrendHistograms(trendAggregation({ histogram: { kind: 'exponential', maxBuckets: 160 } }), AggregationTemporality.CUMULATIVE);
    expect((await trends.collect()).resourceMetrics.scopeMetrics).toEqual([]);
  });
});
