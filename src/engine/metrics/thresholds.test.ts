import { describe, expect, it } from 'vitest';
import type { MetricType } from '../../core/metrics.js';
import { abortingVerdict, compare, judgeThresholds, parseThresholds, validateThresholds } from './thresholds.js';

const types: Record<string, MetricType> = {
  http_req_duration: 'trend',
  http_req_failed: 'rate',
  http_reqs: 'counter',
  vus: 'gauge',
};
const typeOf = (name: string) => types[name];

describe('compare', () => {
  it('compares with every operator, === being the same as ==', () => {
    expect(compare(1, '===', 1)).toBe(true);
    expect(compare(1, '==', 2)).toBe(false);
    expect(compare(1, '!=', 2)).toBe(true);
  });
});

describe('parseThresholds', () => {
  it('reads strings and objects with abortOnFail and a Go-duration delayAbortEval', () => {
    const sets = parseThresholds({
      http_req_failed: ['rate<0.01'],
      'http_req_duration{op:x}': [{ threshold: 'p(95)<500', abortOnFail: true, delayAbortEval: '1m30s' }],
    });
    expect(sets).toHaveLength(2);
    expect(sets[0]?.thresholds[0]).toMatchObject({ abortOnFail: false, delayAbortEvalMs: 0 });
    expect(sets[1]).toMatchObject({ key: 'http_req_duration{op:x}', metric: 'http_req_duration', tags: { op: 'x' } });
    expect(sets[1]?.thresholds[0]).toMatchObject({ aggregation: 'p(95)', abortOnFail: true, delayAbortEvalMs: 90_000 });
  });

  it('names the key in the error of a bad expression', () => {
    expect(() => parseThresholds({ http_reqs: ['count>'] })).toThrow(/http_reqs/);
  });

  it('refuses a bad delayAbortEval, a non-boolean abortOnFail and a list that is not a list', () => {
    expect(() => parseThresholds({ a: [{ threshold: 'count>1', delayAbortEval: '10 parsecs' }] })).toThrow(/invalid duration/);
    expect(() => parseThresholds({ a: [{ threshold: 'count>1', abortOnFail: 'yes' }] })).toThrow(/abortOnFail/);
    expect(() => parseThresholds({ a: 'count>1' })).toThrow(/must be a list/);
    expect(() => parseThresholds({ a: [{ abortOnFail: true }] })).toThrow(/"threshold" string/);
  });

  it('gives nothing for no thresholds', () => {
    expect(parseThresholds(undefined)).toEqual([]);
  });
});

describe('validateThresholds', () => {
  // k6 docs, /using-k6/thresholds/: Counter offers count and rate, Gauge value, Rate rate, Trend avg, min, max, med
  // and p(N).
  it('accepts each aggregation on the metric types that offer it', () => {
    const ok = parseThresholds({
      http_reqs: ['count>1', 'rate>1'],
      vus: ['value<10'],
      http_req_failed: ['rate<0.1'],
      http_req_duration: ['avg<1', 'min<1', 'max<1', 'med<1', 'p(90)<1'],
    });
    expect(() => validateThresholds(ok, typeOf)).not.toThrow();
  });

  it('refuses an aggregation that does not fit the metric type', () => {
    expect(() => validateThresholds(parseThresholds({ http_req_duration: ['rate<1'] }), typeOf)).toThrow(/trend metrics offer/);
    expect(() => validateThresholds(parseThresholds({ http_req_failed: ['count<1'] }), typeOf)).toThrow(/rate metrics offer/);
    expect(() => validateThresholds(parseThresholds({ vus: ['p(95)<1'] }), typeOf)).toThrow(/gauge metrics offer/);
    expect(() => validateThresholds(parseThresholds({ http_reqs: ['avg<1'] }), typeOf)).toThrow(/counter metrics offer/);
  });

  // k6 (issue k6-docs#671) refuses a threshold on an unknown metric at startup: `no metric name "X" found`.
  it('refuses a key naming no declared metric, with k6 wording', () => {
    expect(() => validateThresholds(parseThresholds({ 'nope{a:b}': ['count>1'] }), typeOf)).toThrow('no metric name "nope" found');
  });
});

describe('judgeThresholds', () => {
  const sets = parseThresholds({ http_req_duration: ['p(95)<500', { threshold: 'avg<100', abortOnFail: true, delayAbortEval: '10s' }] });

  // k6 docs, /using-k6/thresholds/: "If that expression evaluates to false at the end of the test, k6 considers the
  // whole test a fail."
  it('fails a threshold whose expression is false', () => {
    const v = judgeThresholds(sets, (_k, t) => (t.aggregation === 'avg' ? 150 : 300));
    expect(v.map((x) => x.ok)).toEqual([true, false]);
    expect(v[1]?.value).toBe(150);
  });

  // k6's metrics/thresholds.go (the docs are silent): "we assume that a missing sink entry means that no samples are
  // available yet, and that it's safe to ignore this run": a threshold with nothing to judge passes.
  it('passes a threshold with no value, as k6 passes one whose metric had nothing for its aggregation', () => {
    expect(judgeThresholds(sets, () => undefined).every((x) => x.ok)).toBe(true);
  });

  it('aborts only on a failed abortOnFail threshold once its delayAbortEval has passed', () => {
    const v = judgeThresholds(sets, () => 1000);
    expect(abortingVerdict(v, 5_000)).toBeUndefined();
    expect(abortingVerdict(v, 10_000)?.threshold.source).toBe('avg<100');
    expect(
      abortingVerdict(
        judgeThresholds(sets, () => 1),
        60_000,
      ),
    ).toBeUndefined();
  });
});
