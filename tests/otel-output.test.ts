// `--out opentelemetry` against a real OTLP metrics store started here (VictoriaMetrics, tests/victoria-metrics.ts),
// read back through its query API. k6's documentation, /results-output/real-time/opentelemetry/: "k6 converts all k6
// metric types to an equivalent OTEL metric type, and all k6 tags to OTEL attributes."
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { n } from '../src/engine/engine-process.js';
import { runInProcess } from '../src/engine/run/in-process.js';
import { dialtoneInProcess } from './in-process-cli.js';
import { type MetricsStore, startVictoriaMetrics } from './victoria-metrics.js';

let store: MetricsStore;
beforeAll(async () => {
  store = await startVictoriaMetrics();
}, 300_000);
afterAll(async () => {
  await store?.stop();
});

/** The variables that send a run's samples to the store over OTLP/HTTP, under a service name of the test's own. */
const httpEnv = (service: string, extra: Record<string, string> = {}) => ({
  K6_OTEL_EXPORTER_TYPE: 'http',
  K6_OTEL_HTTP_EXPORTER_ENDPOINT: store.endpoint,
  K6_OTEL_HTTP_EXPORTER_URL_PATH: store.otlpPath,
  K6_OTEL_HTTP_EXPORTER_INSECURE: 'true',
  K6_OTEL_SERVICE_NAME: service,
  ...extra,
});

/** A label matcher on the run's service name: each test reads only what its own run sent. */
const of = (service: string) => `"service.name"="${service}"`;

/**
 * Each series of `selector` as the run's last export left it, leaving out the series only earlier exports had: the
 * exponential histogram may change scale while the run goes (a wider range of durations), and the buckets it had at
 * the old scale then stay in the store with their old counts.
 */
const lastExport = (selector: string) =>
  `(last_over_time(${selector}[1h]) and tlast_over_time(${selector}[1h]) >= scalar(max(tlast_over_time(${selector}[1h]))) - 0.5)`;

/** One VU, ten iterations: a counter, a gauge, a rate and a trend, each with a tag of its own. */
const MAPPED = `import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
  import exec from 'k6/execution';
  const c = new Counter('c'); const g = new Gauge('g'); const r = new Rate('r'); const t = new Trend('t', true);
  export const options = { vus: 1, iterations: 10 };
  export default function () {
    const i = exec.scenario.iterationInTest;
    c.add(2, { kind: 'a' }); g.add(i); r.add(i % 4 === 0); t.add(i * 10, { step: 'x' });
  }`;

describe('--out opentelemetry on the built-in engine, read back from a real OTLP store', () => {
  it("sends a chat-turns run whose request count, read back from the store, is the summary's, and whose p95 is within a bucket of it", async () => {
    const service = `chat-${randomUUID()}`;
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-otel-'));
    // 2048 buckets at most: the exponential histogram keeps a scale at which a bucket is under 0.6 % wide.
    const env = httpEnv(service, { DIALTONE_OTEL_HISTOGRAM_BUCKETS: '2048' });
    const raw = join(dir, 'raw.json');
    const args = ['load', 'chat-turns', '--engine', 'builtin', '--workload', 'smoke', '--rate', '30', '--duration', '5s', '--out', `json=${raw}`];
    const run = await dialtoneInProcess([...args, '--out', 'opentelemetry', '--report-dir', dir], { env, timeoutMs: 120_000 });
    expect(run.stderr).not.toMatch(/output opentelemetry/);
    // On a busy machine the run's own latency SLOs may fail (99); what it sent is what is judged here.
    expect([0, 99]).toContain(run.code);
    const summary = JSON.parse(readFileSync(join(dir, 'load', 'chat-turns', 'summary.json'), 'utf8')) as {
      metrics: Record<string, Record<string, number>>;
    };
    const count = summary.metrics.http_reqs?.count ?? 0;
    const p95 = summary.metrics.http_req_duration?.['p(95)'] ?? 0;
    await store.settle(of(service));
    const stored = await store.query(`sum(last_over_time(http_reqs{${of(service)}}[1h]))`);
    const storedP95 = (await store.query(`histogram_quantile(0.95, sum(${lastExport(`http_req_duration_bucket{${of(service)}}`)}) by (vmrange))`)) ?? 0;
    expect(count).toBeGreaterThan(500);
    expect(Math.abs((stored ?? 0) - count) / count).toBeLessThanOrEqual(0.01);
    // k6's p(95) interpolates between the two samples around rank 0.95·(n−1); a histogram knows each sample only to its
    // bucket, and the store answers histogram_quantile over its own vmrange buckets, 18 a decade (10^(1/18), 13.7 %
    // wide), interpolating inside one. So the store's p95 lies within one such bucket of those two samples; how close
    // it comes to k6's inside the bucket depends on where the samples fall in it.
    const samples = readFileSync(raw, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"Point"') && l.includes('"metric":"http_req_duration"'))
      .map((l) => (JSON.parse(l) as { data: { value: number } }).data.value)
      .sort((a, b) => a - b);
    const rank = 0.95 * (samples.length - 1);
    const [below, above] = [samples[Math.floor(rank)] ?? 0, samples[Math.ceil(rank)] ?? 0];
    expect(samples.length).toBe(count);
    expect(p95).toBeGreaterThanOrEqual(below);
    const vmrange = 10 ** (1 / 18);
    const seen = `k6's p95 ${p95} between samples ${below} and ${above}; the store's ${storedP95}`;
    expect(storedP95, seen).toBeGreaterThanOrEqual(below / vmrange);
    expect(storedP95, seen).toBeLessThanOrEqual(above * vmrange);
  }, 180_000);

  it("maps k6's metric types as k6 does: counters as sums, gauges, rates as one counter by condition, trends as histograms, tags as attributes", async () => {
    const service = `mapped-${randomUUID()}`;
    const r = await runInProcess(MAPPED, ['--out', 'opentelemetry'], { env: httpEnv(service, { K6_OTEL_METRIC_PREFIX: 'k6_' }) });
    expect(r.code).toBe(0);
    await store.settle(of(service));
    const q = (promql: string) => store.query(promql.replaceAll('SVC', of(service)));
    expect(await q('sum(last_over_time(k6_c{SVC,kind="a"}[1h]))')).toBe(20);
    expect(await q('last_over_time(k6_g{SVC}[1h])')).toBe(9);
    // "a single Int64Counter counter named metric_name with an attribute condition that can have two values: zero and nonzero"
    expect(await q('sum(last_over_time(k6_r{SVC,condition="nonzero"}[1h]))')).toBe(3);
    expect(await q('sum(last_over_time(k6_r{SVC,condition="zero"}[1h]))')).toBe(7);
    expect(await q('sum(last_over_time(k6_t_count{SVC,step="x"}[1h]))')).toBe(10);
    expect(await q('sum(last_over_time(k6_t_sum{SVC,step="x"}[1h]))')).toBe(450);
    expect(n(r, 'c', 'count')).toBe(20);
  }, 60_000);

  it('sends rates as the two counters metric_name.occurred and metric_name.total with K6_OTEL_SINGLE_COUNTER_FOR_RATE=false', async () => {
    const service = `legacy-${randomUUID()}`;
    const r = await runInProcess(MAPPED, ['--out', 'experimental-opentelemetry'], { env: httpEnv(service, { K6_OTEL_SINGLE_COUNTER_FOR_RATE: 'false' }) });
    expect(r.code).toBe(0);
    await store.settle(of(service));
    expect(await store.query(`sum(last_over_time({__name__="r.occurred",${of(service)}}[1h]))`)).toBe(3);
    expect(await store.query(`sum(last_over_time({__name__="r.total",${of(service)}}[1h]))`)).toBe(10);
  }, 60_000);

  it('sends over OTLP/gRPC with K6_OTEL_HEADERS as metadata: the request reaches the store through a receiver that hands its bytes on unread', async () => {
    // VictoriaMetrics takes OTLP over HTTP only. The receiver below is gRPC's MetricsService/Export, passing each
    // request's protobuf body to the store's OTLP/HTTP path as it came: what the store reads is what the exporter sent.
    const service = `grpc-${randomUUID()}`;
    const server = new grpc.Server();
    const raw = (b: Buffer) => b;
    const passThrough = {
      requestStream: false,
      responseStream: false,
      requestSerialize: raw,
      requestDeserialize: raw,
      responseSerialize: raw,
      responseDeserialize: raw,
    };
    const path = '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export';
    const tenants: unknown[] = [];
    server.addService({ Export: { path, ...passThrough } } as grpc.ServiceDefinition, {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => {
        tenants.push(...call.metadata.get('x-scope-orgid'));
        fetch(`http://${store.endpoint}${store.otlpPath}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-protobuf' },
          body: new Uint8Array(call.request),
        }).then(
          (res) => done(res.ok ? null : { code: grpc.status.INTERNAL, details: `store answered ${res.status}` }, Buffer.alloc(0)),
          (e: Error) => done({ code: grpc.status.UNAVAILABLE, details: e.message }),
        );
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    try {
      const env = {
        K6_OTEL_EXPORTER_TYPE: 'grpc',
        K6_OTEL_GRPC_EXPORTER_ENDPOINT: `127.0.0.1:${port}`,
        K6_OTEL_GRPC_EXPORTER_INSECURE: 'true',
        K6_OTEL_SERVICE_NAME: service,
        K6_OTEL_HEADERS: 'X-Scope-OrgID=team-a',
      };
      const r = await runInProcess(MAPPED, ['--out', 'opentelemetry'], { env });
      expect(r.stderr).not.toMatch(/output opentelemetry/);
      expect(r.code).toBe(0);
    } finally {
      server.forceShutdown();
    }
    // K6_OTEL_HEADERS go as the call's metadata.
    expect(tenants).toContain('team-a');
    await store.settle(of(service));
    expect(await store.query(`sum(last_over_time(c{${of(service)},kind="a"}[1h]))`)).toBe(20);
  }, 60_000);

  it('exports while the run goes, every K6_OTEL_EXPORT_INTERVAL, not only at its end', async () => {
    // "K6_OTEL_EXPORT_INTERVAL: Configures the intervening time between metrics exports." A receiver in front of the
    // store counts the exports; the script's one iteration waits until one has arrived, so the run's own last export
    // is a second one. Without exports during the run the iteration waits out its 30 s and only one arrives.
    const service = `interval-${randomUUID()}`;
    let exports = 0;
    const receiver = createServer((req, res) => {
      if (req.method === 'GET') {
        res.end(String(exports));
        return;
      }
      const body: Buffer[] = [];
      req.on('data', (d: Buffer) => body.push(d));
      req.on('end', () => {
        exports++;
        const headers = { 'content-type': 'application/x-protobuf' };
        fetch(`http://${store.endpoint}${store.otlpPath}`, { method: 'POST', headers, body: new Uint8Array(Buffer.concat(body)) }).then(
          (r) => res.writeHead(r.status).end(),
          () => res.writeHead(502).end(),
        );
      });
    });
    const port = await new Promise<number>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as { port: number }).port)));
    const script = `import http from 'k6/http'; import { sleep } from 'k6'; import { Counter } from 'k6/metrics';
      const waited = new Counter('waited');
      export const options = { vus: 1, iterations: 1 };
      export default function () {
        for (let i = 0; i < 300 && http.get('http://127.0.0.1:${port}/exports').body === '0'; i++) { waited.add(1); sleep(0.1); }
      }`;
    const env = {
      ...httpEnv(service, { K6_OTEL_FLUSH_INTERVAL: '100ms', K6_OTEL_EXPORT_INTERVAL: '200ms' }),
      K6_OTEL_HTTP_EXPORTER_ENDPOINT: `127.0.0.1:${port}`,
      K6_OTEL_HTTP_EXPORTER_URL_PATH: '/v1/metrics',
    };
    try {
      const r = await runInProcess(script, ['--out', 'opentelemetry'], { env });
      expect(r.code).toBe(0);
      expect(n(r, 'waited', 'count')).toBeLessThan(300);
    } finally {
      receiver.close();
    }
    expect(exports).toBeGreaterThanOrEqual(2);
    await store.settle(of(service));
    // The last export may be searchable a moment after the series settled: asked again for a while, not judged on time.
    let requests: number | undefined;
    for (let i = 0; i < 80 && requests === undefined; i++) {
      requests = await store.query(`sum(last_over_time(http_reqs{${of(service)}}[1h]))`);
      if (requests === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    expect(requests).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('goes on when the endpoint is unreachable, ends as it would have, and says how many samples it dropped', async () => {
    // Port 9 (discard) on 127.0.0.1: nothing listens there on a test machine.
    // A 1 s export interval bounds each export's wait, so the run's end waits at most that long on the last one.
    const env = {
      K6_OTEL_EXPORTER_TYPE: 'http',
      K6_OTEL_HTTP_EXPORTER_ENDPOINT: '127.0.0.1:9',
      K6_OTEL_HTTP_EXPORTER_INSECURE: 'true',
      K6_OTEL_EXPORT_INTERVAL: '1s',
    };
    const r = await runInProcess(MAPPED, ['--out', 'opentelemetry'], { env });
    expect(r.code).toBe(0);
    expect(n(r, 'iterations', 'count')).toBe(10);
    expect(r.stderr).toMatch(/output opentelemetry: export to http:\/\/127\.0\.0\.1:9\/v1\/metrics failed/);
    // Every sample of the run: 10 iterations of 4 metrics, plus the engine's own (iterations, durations, VUs, data).
    const dropped = Number(/output opentelemetry \(http:\/\/127\.0\.0\.1:9\/v1\/metrics\) dropped (\d+) of (\d+) samples/.exec(r.stderr)?.[1]);
    expect(dropped).toBeGreaterThanOrEqual(40);
  }, 60_000);
});
