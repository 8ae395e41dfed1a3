import { describe, expect, it } from 'vitest';
import { ThresholdError } from '../../core/thresholds.js';
import { MetricStore } from './store.js';
import { parseThresholds } from './thresholds.js';

const trend = { name: 'http_req_duration', type: 'trend', contains: 'time' } as const;

function storeWith(thresholds: Record<string, unknown> = {}, now = () => 0) {
  const store = new MetricStore({ thresholds: parseThresholds(thresholds), now });
  store.declare(trend);
  store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
  store.declare({ name: 'checks', type: 'rate', contains: 'default' });
  store.declare({ name: 'vus', type: 'gauge', contains: 'default' });
  return store;
}

describe('MetricStore tags', () => {
  it('gives the same id to the same tags whatever their key order', () => {
    const s = new MetricStore();
    const a = s.internTags({ method: 'GET', status: '200' });
    expect(s.internTags({ status: '200', method: 'GET' })).toBe(a);
    expect(s.internTags({ status: '500', method: 'GET' })).not.toBe(a);
    expect(s.tagsOf(a)).toEqual({ method: 'GET', status: '200' });
  });

  it('tells apart tag sets whose joined text would be the same', () => {
    const s = new MetricStore();
    expect(s.internTags({ a: 'b,c' })).not.toBe(s.internTags({ 'a,b': 'c' }));
  });
});

describe('MetricStore declarations', () => {
  it('allows declaring a metric twice with the same type and refuses another type', () => {
    const s = storeWith();
    expect(() => s.declare(trend)).not.toThrow();
    expect(() => s.declare({ ...trend, type: 'counter' })).toThrow(/already a trend/);
  });

  it('refuses samples of an undeclared metric', () => {
    const s = new MetricStore();
    expect(() => s.add('nope', s.internTags({}), 0, 1)).toThrow(/not declared/);
  });

  it('refuses after init a threshold on a metric nobody declared', () => {
    const s = storeWith({ my_trend: ['p(95)<1'] });
    expect(() => s.validateThresholds()).toThrow(ThresholdError);
    s.declare({ name: 'my_trend', type: 'trend', contains: 'default' });
    expect(() => s.validateThresholds()).not.toThrow();
  });
});

describe('MetricStore aggregation', () => {
  it('aggregates each sub-metric named by a threshold from the samples whose tags include its filter', () => {
    const s = storeWith({ 'http_req_duration{op:a}': ['p(95)<500'], 'http_req_duration{op:a,status:500}': ['max<1'] });
    const ok = s.internTags({ op: 'a', status: '200' });
    const err = s.internTags({ op: 'a', status: '500' });
    const other = s.internTags({ op: 'b', status: '200' });
    s.add('http_req_duration', ok, 0, 10);
    s.add('http_req_duration', err, 0, 30);
    s.add('http_req_duration', other, 0, 1000);
    s.add('http_req_duration', ok, 0, 20);
    expect(s.aggregate('http_req_duration', 'count')).toBe(4);
    expect(s.aggregate('http_req_duration{op:a}', 'count')).toBe(3);
    expect(s.aggregate('http_req_duration{op:a}', 'max')).toBe(30);
    expect(s.aggregate('http_req_duration{op:a,status:500}', 'avg')).toBe(30);
  });

  it('aggregates http_req_duration{expected_response:true} without a threshold, as k6 shows it', () => {
    const s = storeWith();
    s.add('http_req_duration', s.internTags({ expected_response: 'true' }), 0, 5);
    s.add('http_req_duration', s.internTags({ expected_response: 'false' }), 0, 50);
    expect(s.aggregate('http_req_duration{expected_response:true}', 'max')).toBe(5);
  });

  // k6 issue #2538: a threshold on http_req_duration{expected_response:true} must work alongside the built-in one.
  it('shares one sub-metric between a threshold and the built-in expected_response one', () => {
    const s = storeWith({ 'http_req_duration{expected_response:true}': ['p(95)<500'] });
    s.add('http_req_duration', s.internTags({ expected_response: 'true' }), 0, 5);
    expect(s.entries().filter((e) => e.key === 'http_req_duration{expected_response:true}')).toHaveLength(1);
    expect(s.judge()[0]?.ok).toBe(true);
  });

  it('drops non-finite values', () => {
    const s = storeWith();
    const t = s.internTags({});
    s.add('http_req_duration', t, 0, Number.NaN);
    s.add('http_req_duration', t, 0, Number.POSITIVE_INFINITY);
    s.add('http_req_duration', t, 0, 3);
    expect(s.aggregate('http_req_duration', 'avg')).toBe(3);
  });

  it('computes a counter rate over the run from begin to end', () => {
    let now = 1000;
    const s = storeWith({}, () => now);
    s.begin(1000);
    s.emit('http_reqs', 10, {});
    now = 6000;
    expect(s.aggregate('http_reqs', 'rate')).toBe(2);
    s.end(11_000);
    now = 99_000;
    expect(s.aggregate('http_reqs', 'rate')).toBe(1);
  });

  it('counts passes and fails per check and group from the checks samples', () => {
    const s = storeWith();
    s.emit('checks', 1, { check: 'status is 200', group: '' });
    s.emit('checks', 0, { check: 'status is 200', group: '' });
    s.emit('checks', 1, { check: 'body ok', group: '::login::form' });
    const root = s.groups.root;
    expect(root.checks.get('status is 200')).toMatchObject({ passes: 1, fails: 1, path: '::status is 200' });
    const form = root.groups.get('login')?.groups.get('form');
    expect(form?.path).toBe('::login::form');
    expect(form?.checks.get('body ok')).toMatchObject({ passes: 1, fails: 0, path: '::login::form::body ok' });
  });
});

describe('MetricStore thresholds', () => {
  it('judges thresholds on the whole metric and on sub-metrics', () => {
    const s = storeWith({ http_req_duration: ['p(95)<100'], 'http_req_duration{op:slow}': ['p(95)<100'] });
    s.emit('http_req_duration', 10, { op: 'fast' });
    s.emit('http_req_duration', 500, { op: 'slow' });
    s.emit('http_req_duration', 10, { op: 'fast' });
    const v = s.judge();
    expect(v.map((x) => [x.key, x.ok])).toEqual([
      ['http_req_duration', false],
      ['http_req_duration{op:slow}', false],
    ]);
    expect(s.lastVerdicts).toBe(v);
  });

  // k6 (the docs are silent; its metrics engine): at the end of the test every threshold is judged, an empty counter,
  // gauge or trend on the 0 its sink holds, while an empty rate has no rate: "a missing sink entry means that no samples
  // are available yet, and that it's safe to ignore this run" (metrics/thresholds.go), so its thresholds pass.
  it('judges an empty counter, trend or gauge on 0 at the end and passes the thresholds of an empty rate', () => {
    const s = storeWith({
      http_reqs: ['count<1', 'rate<1', 'count>0'],
      http_req_duration: ['avg<1', 'p(95)>0'],
      checks: ['rate>0.9', 'rate==1.0'],
      vus: ['value<10'],
      'http_req_duration{op:never}': ['p(95)<500'],
    });
    expect(s.judge().map((x) => [x.key, x.threshold.source, x.ok, x.value])).toEqual([
      ['http_reqs', 'count<1', true, 0],
      ['http_reqs', 'rate<1', true, 0],
      ['http_reqs', 'count>0', false, 0],
      ['http_req_duration', 'avg<1', true, 0],
      ['http_req_duration', 'p(95)>0', false, 0],
      ['checks', 'rate>0.9', true, undefined],
      ['checks', 'rate==1.0', true, undefined],
      ['vus', 'value<10', true, 0],
      ['http_req_duration{op:never}', 'p(95)<500', true, 0],
    ]);
  });

  // k6 evaluates thresholds every 2 s while the run goes on, "ignoreEmptySinks" then: an abortOnFail threshold on a
  // metric that has no sample yet (count>0 on an empty counter) cannot stop the run before its first sample.
  it('leaves every empty metric unjudged while the run goes on, so abortOnFail cannot fire on it', () => {
    const s = storeWith({ http_reqs: [{ threshold: 'count>0', abortOnFail: true }], http_req_duration: ['avg>5'] });
    expect(s.judge({ during: true }).map((x) => x.ok)).toEqual([true, true]);
    expect(s.judge().map((x) => x.ok)).toEqual([false, false]);
  });
});

describe('MetricStore listeners', () => {
  it('hands every sample to listeners until they unsubscribe', () => {
    const s = storeWith();
    const seen: [string, number, number, number][] = [];
    const off = s.onSample((m, t, time, v) => seen.push([m, t, time, v]));
    const tags = s.internTags({ a: '1' });
    s.add('http_reqs', tags, 123, 1);
    off();
    s.add('http_reqs', tags, 124, 1);
    expect(seen).toEqual([['http_reqs', tags, 123, 1]]);
  });
});

describe('MetricStore.setThresholds', () => {
  it('takes thresholds after metrics were declared, as long as no sample came yet', () => {
    const s = storeWith();
    s.setThresholds(parseThresholds({ 'http_req_duration{op:a}': ['max<10'] }));
    s.emit('http_req_duration', 5, { op: 'a' });
    s.emit('http_req_duration', 50, { op: 'b' });
    expect(s.aggregate('http_req_duration{op:a}', 'max')).toBe(5);
    expect(s.judge().map((v) => v.ok)).toEqual([true]);
    expect(() => s.setThresholds([])).toThrow(/before the first sample/);
  });
});
