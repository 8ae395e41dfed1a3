import { describe, expect, it } from 'vitest';
import { parseMetricKey, parseThresholdExpression, ThresholdError } from './thresholds.js';

describe('parseThresholdExpression', () => {
  it('reads an aggregation, an operator and a number, with spaces allowed around each', () => {
    expect(parseThresholdExpression('p(95)<500')).toMatchObject({ aggregation: 'p(95)', percentile: 95, operator: '<', value: 500 });
    expect(parseThresholdExpression('  avg >= 1.5 ')).toMatchObject({ aggregation: 'avg', operator: '>=', value: 1.5 });
    expect(parseThresholdExpression('p( 99 ) != -2')).toMatchObject({ aggregation: 'p(99)', operator: '!=', value: -2 });
  });

  it('keeps the expression as written, because summaries are keyed by it', () => {
    expect(parseThresholdExpression(' p(95) < 500').source).toBe(' p(95) < 500');
  });

  it('reads every operator', () => {
    for (const op of ['<', '<=', '>', '>=', '==', '===', '!=']) expect(parseThresholdExpression(`count${op}1`).operator).toBe(op);
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
