import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stat } from '../../core/summary.js';
import { thresholdsOf } from '../../load/summary.js';
import { MetricStore } from './store.js';
import { summaryExport, writeSummaryExport } from './summary-export.js';
import { parseThresholds } from './thresholds.js';

function run() {
  let now = 0;
  const store = new MetricStore({
    thresholds: parseThresholds({
      'http_req_duration{op:chat.respond}': ['p(95)<500'],
      http_req_failed: ['rate<0.01'],
      empty_trend: ['avg<1'],
    }),
    now: () => now,
  });
  store.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
  store.declare({ name: 'http_req_failed', type: 'rate', contains: 'default' });
  store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
  store.declare({ name: 'vus', type: 'gauge', contains: 'default' });
  store.declare({ name: 'checks', type: 'rate', contains: 'default' });
  store.declare({ name: 'empty_trend', type: 'trend', contains: 'default' });
  store.declare({ name: 'never_used', type: 'counter', contains: 'default' });
  for (const [i, d] of [100, 200, 300, 400].entries()) {
    const tags = { op: 'chat.respond', expected_response: 'true' };
    store.emit('http_req_duration', d, tags);
    store.emit('http_req_failed', i === 3 ? 1 : 0, tags);
    store.emit('http_reqs', 1, tags);
  }
  store.emit('vus', 3, {});
  store.emit('vus', 5, {});
  store.emit('vus', 4, {});
  store.emit('checks', 1, { check: 'status is 200', group: '' });
  store.emit('checks', 0, { check: 'status is 200', group: '' });
  store.emit('checks', 1, { check: 'has body', group: '::chat' });
  now = 2000;
  store.end();
  return store;
}

describe('summaryExport', () => {
  it('writes counters as count and rate, gauges as value, min, max, rates as passes, fails, value', () => {
    const m = summaryExport(run()).metrics;
    expect(m.http_reqs).toEqual({ count: 4, rate: 2 });
    expect(m.vus).toEqual({ value: 4, min: 3, max: 5 });
    expect(m.checks).toEqual({ passes: 2, fails: 1, value: 2 / 3 });
  });

  it('writes trends with the summaryTrendStats keys, the default being avg, min, med, max, p(90), p(95)', () => {
    const m = summaryExport(run()).metrics;
    expect(Object.keys(m.http_req_duration ?? {})).toEqual(['avg', 'min', 'med', 'max', 'p(90)', 'p(95)']);
    expect(m.http_req_duration).toMatchObject({ avg: 250, min: 100, med: 250, max: 400 });
    const custom = summaryExport(run(), { summaryTrendStats: ['p(99)', 'count'] }).metrics.http_req_duration;
    expect(custom).toEqual({ 'p(99)': 397, count: 4 });
  });

  // k6 docs (legacy --summary-export): thresholds map each expression to true when it FAILED.
  it('lists sub-metrics with thresholds under their own key, with true for a failed threshold', () => {
    const m = summaryExport(run()).metrics;
    expect(m['http_req_duration{op:chat.respond}']?.thresholds).toEqual({ 'p(95)<500': false });
    expect(m.http_req_failed?.thresholds).toEqual({ 'rate<0.01': true });
    expect(m['http_req_duration{expected_response:true}']).toMatchObject({ max: 400 });
  });

  // k6 judges an empty trend's thresholds on the 0 its sink holds (metrics/thresholds.go; the docs are silent), and
  // shows a metric with thresholds "in the end-of-test summary, even if they don't have any metric samples".
  it('shows a metric with a threshold and no samples as zeros with its threshold judged on 0, and leaves out unused metrics', () => {
    const m = summaryExport(run()).metrics;
    expect(m.empty_trend).toMatchObject({ avg: 0, thresholds: { 'avg<1': false } });
    expect(m.never_used).toBeUndefined();
  });

  it('writes the root group with md5 ids and the checks counted per group', () => {
    const g = summaryExport(run()).root_group;
    expect(g).toMatchObject({ name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e' });
    expect(g.checks['status is 200']).toMatchObject({ name: 'status is 200', path: '::status is 200', passes: 1, fails: 1 });
    expect(g.groups.chat?.checks['has body']).toMatchObject({ path: '::chat::has body', passes: 1, fails: 0 });
  });

  it("is read unchanged by dialtone's summary readers", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dialtone-metrics-')), 'summary.json');
    await writeSummaryExport(path, run());
    const summary = JSON.parse(readFileSync(path, 'utf8'));
    const t = thresholdsOf(summary);
    expect(t.find((x) => x.metric === 'http_req_duration{op:chat.respond}')).toMatchObject({ passed: true, value: 400 - 0.15 * 100 });
    expect(t.find((x) => x.metric === 'http_req_failed')).toMatchObject({ passed: false, value: 0.25 });
    expect(stat(summary, 'vus', 'max')).toBe(5);
    expect(stat(summary, 'http_reqs', 'count')).toBe(4);
  });
});
