import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HistogramFile } from '../../core/histogram-series.js';
import { mergeSegments, readSegment } from '../../load/merge.js';
import { windowedP95 } from '../../soak/windows.js';
import { CSV_HEADER, openOutput, parseOutArg } from './outputs.js';
import { MetricStore } from './store.js';
import { summaryExport } from './summary-export.js';
import { parseThresholds } from './thresholds.js';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

/** A small run: requests with durations, a rate, a counter and checks, 1 s apart over `seconds` seconds. */
function runInto(store: MetricStore, seconds: number) {
  store.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
  store.declare({ name: 'http_req_failed', type: 'rate', contains: 'default' });
  store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
  store.declare({ name: 'checks', type: 'rate', contains: 'default' });
  store.begin(T0);
  for (let i = 0; i < seconds * 10; i++) {
    const time = T0 + i * 100;
    const tags = {
      op: i % 2 ? 'chat.respond' : 'chat.open',
      expected_response: 'true',
      scenario: 'default',
      method: 'GET',
      url: 'http://x/a',
      phase: 'steady',
    };
    store.add('http_req_duration', store.internTags(tags), time, 10 + (i % 17) * 3.25);
    store.add('http_req_failed', store.internTags(tags), time, i % 10 === 0 ? 1 : 0);
    store.add('http_reqs', store.internTags(tags), time, 1);
    store.add('checks', store.internTags({ check: 'ok', group: '' }), time, i % 5 ? 1 : 0);
  }
  store.end(T0 + seconds * 1000);
}

const thresholds = () => parseThresholds({ 'http_req_duration{op:chat.respond}': ['p(95)<50'], http_req_failed: ['rate<0.5'] });

async function segmentWith(out: string): Promise<{ dir: string; store: MetricStore }> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-out-'));
  const store = new MetricStore({ thresholds: thresholds() });
  const o = openOutput(parseOutArg(`${out.split('=')[0]}=${join(dir, out.split('=')[1] as string)}`), store);
  runInto(store, 20);
  await o.close();
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summaryExport(store)));
  writeFileSync(join(dir, 'result.json'), JSON.stringify({ duration_ms: 20_000 }));
  return { dir, store };
}

describe('parseOutArg', () => {
  it('reads the file outputs and the network outputs, and refuses other outputs or a missing file', () => {
    expect(parseOutArg('json=a/raw.json.gz')).toEqual({ type: 'json', path: 'a/raw.json.gz' });
    expect(parseOutArg('csv=raw.csv')).toEqual({ type: 'csv', path: 'raw.csv' });
    expect(parseOutArg('histograms=h.json')).toEqual({ type: 'histograms', path: 'h.json' });
    expect(parseOutArg('influxdb=http://x/k6')).toEqual({ type: 'influxdb', path: 'http://x/k6' });
    expect(parseOutArg('experimental-prometheus-rw')).toEqual({ type: 'experimental-prometheus-rw', path: '' });
    expect(() => parseOutArg('statsd')).toThrow(
      /json=FILE, csv=FILE, histograms=FILE, experimental-prometheus-rw, influxdb, opentelemetry, experimental-opentelemetry only/,
    );
    expect(() => parseOutArg('json')).toThrow(/give a file/);
  });
});

describe('openOutput', () => {
  it('reports a file it cannot open before the run, and again on close', async () => {
    const store = new MetricStore();
    const out = openOutput({ type: 'json', path: join(tmpdir(), 'no-such-dir-dialtone', 'x', 'raw.json') }, store);
    await expect(out.ready()).rejects.toThrow(/ENOENT/);
    await expect(out.close()).rejects.toThrow(/ENOENT/);
  });
});

describe('JSON output', () => {
  // k6 docs, /results-output/real-time/json/: "Each line either has information about a metric, or logs a data point
  // (sample) for a metric."
  it('writes a Metric line the first time a metric is seen, then a Point line per sample', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-out-'));
    const store = new MetricStore({ thresholds: parseThresholds({ http_reqs: ['count>0'] }) });
    store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
    const out = openOutput({ type: 'json', path: join(dir, 'raw.json') }, store);
    await out.ready();
    store.add('http_reqs', store.internTags({ status: '200' }), T0, 1);
    store.add('http_reqs', store.internTags({ status: '500' }), T0 + 1001, 1);
    await out.close();
    const lines = readFileSync(join(dir, 'raw.json'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        type: 'Metric',
        data: { name: 'http_reqs', type: 'counter', contains: 'default', tainted: null, thresholds: ['count>0'], submetrics: null },
        metric: 'http_reqs',
      },
      { type: 'Point', data: { time: '2026-01-02T03:04:05.678Z', value: 1, tags: { status: '200' } }, metric: 'http_reqs' },
      { type: 'Point', data: { time: '2026-01-02T03:04:06.679Z', value: 1, tags: { status: '500' } }, metric: 'http_reqs' },
    ]);
  });

  // k6 docs, /results-output/real-time/json/: "Or if you want to get the result gzipped, like this:
  // k6 run --out json=test_results.gz script.js"
  it('gzips a file whose name ends in .gz', async () => {
    const { dir } = await segmentWith('json=raw.json.gz');
    const text = gunzipSync(readFileSync(join(dir, 'raw.json.gz'))).toString('utf8');
    expect(text.split('\n').filter((l) => l.includes('"Point"'))).toHaveLength(800);
  });

  it("is read back by dialtone's segment merge with the same figures as the store's own summary", async () => {
    const { dir, store } = await segmentWith('json=raw.json.gz');
    const merged = await mergeSegments([readSegment(dir)]);
    const ours = summaryExport(store).metrics;
    for (const key of ['http_req_duration', 'http_req_duration{op:chat.respond}', 'http_req_duration{expected_response:true}', 'http_req_failed', 'checks']) {
      expect(merged.metrics[key], key).toEqual(ours[key]);
    }
    expect(merged.metrics.http_reqs?.count).toBe(200);
    expect(merged.metrics.http_reqs?.rate).toBeCloseTo(10);
  });
});

describe('histograms output', () => {
  it("is read back by dialtone's segment merge: counts exact, every percentile within the histograms' 1 %", async () => {
    const { dir, store } = await segmentWith('histograms=histograms.json');
    const file = JSON.parse(readFileSync(join(dir, 'histograms.json'), 'utf8')) as HistogramFile;
    expect(file.intervals).toHaveLength(21); // 20 s from .678 past a second touch 21 whole seconds
    expect(Object.keys(file.intervals[0]?.metrics ?? {}).sort()).toEqual(
      ['http_req_duration{op:chat.open}', 'http_req_duration{op:chat.respond}', 'http_req_failed', 'http_reqs'].sort(),
    );
    const merged = await mergeSegments([readSegment(dir)]);
    const ours = summaryExport(store).metrics;
    for (const key of ['http_req_duration', 'http_req_duration{op:chat.respond}', 'http_req_duration{expected_response:true}']) {
      for (const stat of ['p(90)', 'p(95)', 'med', 'min', 'max', 'avg'])
        expect(Math.abs((merged.metrics[key]?.[stat] as number) / (ours[key]?.[stat] as number) - 1), `${key} ${stat}`).toBeLessThanOrEqual(0.0201);
      expect(merged.metrics[key]?.thresholds).toEqual(ours[key]?.thresholds);
    }
    for (const key of ['http_req_failed', 'checks']) expect(merged.metrics[key], key).toEqual(ours[key]);
    expect(merged.metrics.http_reqs?.count).toBe(200);
  });
});

describe('CSV output', () => {
  it("writes k6's header and the known tags in their columns, the others in extra_tags", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-out-'));
    const store = new MetricStore();
    store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
    const out = openOutput({ type: 'csv', path: join(dir, 'raw.csv') }, store);
    store.add('http_reqs', store.internTags({ status: '200', method: 'GET', zone: 'a', op: 'x,y' }), T0, 1);
    await out.close();
    const [header, line] = readFileSync(join(dir, 'raw.csv'), 'utf8').trim().split('\n');
    expect(header).toBe(CSV_HEADER);
    expect(header).toBe(
      'metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata',
    );
    expect(line).toBe(`http_reqs,${Math.floor(T0 / 1000)},1.000000,,,,,,GET,,,,,200,,,,"op=x,y&zone=a",`);
  });

  it("is read back by dialtone's segment merge and soak windows", async () => {
    const { dir, store } = await segmentWith('csv=raw.csv.gz');
    const merged = await mergeSegments([readSegment(dir)]);
    const ours = summaryExport(store).metrics;
    for (const key of ['http_req_duration', 'http_req_duration{op:chat.respond}', 'http_req_failed', 'checks']) {
      for (const [k, v] of Object.entries(ours[key] ?? {})) {
        if (typeof v === 'number') expect(merged.metrics[key]?.[k], `${key} ${k}`).toBeCloseTo(v, 5);
        else expect(merged.metrics[key]?.[k]).toEqual(v);
      }
    }
    const w = await windowedP95(join(dir, 'raw.csv.gz'), 'http_req_duration', 5);
    expect(w.samples).toBe(200);
    expect(w.firstP95Ms).toBeGreaterThan(10);
  });

  it('keeps every line when a run writes more than one buffered chunk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-out-'));
    mkdirSync(dir, { recursive: true });
    const store = new MetricStore();
    store.declare({ name: 'x', type: 'trend', contains: 'default' });
    const out = openOutput({ type: 'csv', path: join(dir, 'big.csv') }, store);
    const tags = store.internTags({ url: 'http://example.test/some/long/path', scenario: 'default' });
    for (let i = 0; i < 30_000; i++) store.add('x', tags, T0 + i, i);
    await out.close();
    const lines = readFileSync(join(dir, 'big.csv'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(30_001);
    expect(lines.at(-1)?.startsWith('x,')).toBe(true);
  });
});
