// The output's settings from k6's K6_OTEL_* variables (/results-output/real-time/opentelemetry/, "Configuration").
// What reaches a real store is tested in tests/otel-output.test.ts.
import { describe, expect, it } from 'vitest';
import { parseOutArg } from '../outputs.js';
import { otelConfig } from './opentelemetry.js';

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
