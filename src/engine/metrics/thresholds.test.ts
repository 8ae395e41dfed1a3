import { describe, expect, it } from 'vitest';
import type { MetricType } from '../types.js';
import {
  abortingVerdict,
  compare,
  judgeThresholds,
  parseMetricKey,
  parseThresholdExpression,
  parseThresholds,
  ThresholdError,
  validateThresholds,
} from './thresholds.js';

const types: Record<string, MetricType> = {
  http_req_duration: 'trend',
  http_req_failed: 'rate',
  http_reqs: 'counter',
  vus: 'gauge',
};
const typeOf = (name: string) => types[name];

describe('parseThresholdExpression', () => {
  it('reads an aggregation, an operator and a number, with spaces allowed around each', () => {
    expect(parseThresholdExpression('p(95)<500')).toMatchObject({ aggregation: 'p(95)', percentile: 95, operator: '<', value: 500 });
    expect(parseThresholdExpression('  avg >= 1.5 ')).toMatchObject({ aggregation: 'avg', operator: '>=', value: 1.5 });
    expect(parseThresholdExpression('p( 99 ) != -2')).toMatchObject({ aggregation: 'p(99)', operator: '!=', value: -2 });
  });

  it('keeps the expression as written, because summaries are keyed by it', () => {
    expect(parseThresholdExpression(' p(95) < 500').source).toBe(' p(95) < 500');
  });

  it('reads every operator, === being the same as ==', () => {
    for (const op of ['<', '<=', '>', '>=', '==', '===', '!=']) expect(parseThresholdExpression(`count${op}1`).operator).toBe(op);
    expect(compare(1, '===', 1)).toBe(true);
    expect(compare(1, '==', 2)).toBe(false);
    expect(compare(1, '!=', 2)).toBe(true);
  });

  // k6 docs, /javascript-api/k6-metrics/trend/: "N is a number between 0.0 and 100.0 meaning the percentile value to
  // look at, e.g. p(99.99) means the 99.99th percentile."
  it('takes a percentile from 0 to 100 with decimals', () => {
    expect(parseThresholdExpression('p(99.99)<1').percentile).toBe(99.99);
    expect(parseThresholdExpression('p(0)<1').percentile).toBe(0);
    expect(parseThresholdExpression('p(100)<1').percentile).toBe(100);
  });

  it('refuses a percentile outside 0..100 or that is not a number', () => {
    expect(() => parseThresholdExpression('p(101)<1')).toThrow(/from 0 to 100/);
    expect(() => parseThresholdExpression('p(-1)<1')).toThrow(/from 0 to 100/);
    expect(() => parseThresholdExpression('p(x)<1')).toThrow(ThresholdError);
  });

  it('refuses malformed expressions with a one-line message', () => {
    for (const bad of ['p95<500', 'avg<<1', 'avg<', 'average<1', 'avg<1ms', 'avg 1', '']) {
      expect(() => parseThresholdExpression(bad)).toThrow(ThresholdError);
      try {
        parseThresholdExpression(bad);
      } catch (e) {
        expect((e as Error).message).not.toContain('\n');
      }
    }
  });
});

describe('parseMetricKey', () => {
  it('splits a sub-metric key into the metric and its tag filter', () => {
    expect(parseMetricKey('http_req_duration{op:chat.respond,dialtone_phase:steady}')).toEqual({
      metric: 'http_req_duration',
      tags: { op: 'chat.respond', dialtone_phase: 'steady' },
    });
  });

  it('keeps colons after the first in a tag value, for URLs', () => {
    expect(parseMetricKey('http_req_duration{url:http://a:8080/x}').tags).toEqual({ url: 'http://a:8080/x' });
  });

  it('gives no tags for a plain metric name', () => {
    expect(parseMetricKey('http_reqs')).toEqual({ metric: 'http_reqs', tags: undefined });
  });

  it('refuses empty braces, a filter without a colon, and a missing metric name', () => {
    expect(() => parseMetricKey('http_reqs{}')).toThrow(ThresholdError);
    expect(() => parseMetricKey('http_reqs{status}')).toThrow(ThresholdError);
    expect(() => parseMetricKey('{status:200}')).toThrow(ThresholdError);
    expect(() => parseMetricKey('http_reqs{status:200')).toThrow(ThresholdError);
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

  it('fails a threshold with no value, since a verdict is never green when what it judges did not happen', () => {
    expect(judgeThresholds(sets, () => undefined).every((x) => !x.ok)).toBe(true);
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
