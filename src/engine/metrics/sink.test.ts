import { describe, expect, it } from 'vitest';
import { checkTrendStats, parsePercentileStat, Sink, summaryKeys, summaryValues } from './sink.js';

describe('Sink', () => {
  // k6 docs, /javascript-api/k6-metrics/: "Counter: A metric that cumulatively sums added values."
  it('sums a counter and gives its rate per second of the run', () => {
    const s = new Sink('counter');
    for (const v of [1, 2, 3]) s.add(v);
    expect(s.stat('count', 2)).toBe(6);
    expect(s.stat('rate', 2)).toBe(3);
  });

  it('gives an empty counter a count and rate of 0', () => {
    const s = new Sink('counter');
    expect(s.stat('count', 10)).toBe(0);
    expect(s.stat('rate', 10)).toBe(0);
  });

  // k6 docs, /javascript-api/k6-metrics/: "Gauge: A metric that stores the min, max and last values added to it."
  it('keeps a gauge last, min and max value', () => {
    const s = new Sink('gauge');
    for (const v of [5, 1, 9, 3]) s.add(v);
    expect([s.stat('value', 1), s.stat('min', 1), s.stat('max', 1)]).toEqual([3, 1, 9]);
    expect(new Sink('gauge').stat('value', 1)).toBeUndefined();
  });

  // k6 docs, /javascript-api/k6-metrics/: "Rate: A metric that tracks the percentage of added values that are
  // non-zero."
  it('gives a rate the share of non-zero values, and its passes and fails', () => {
    const s = new Sink('rate');
    for (const v of [1, 0, 1, 1]) s.add(v);
    expect(s.stat('rate', 1)).toBe(0.75);
    expect(s.stat('value', 1)).toBe(0.75);
    expect([s.stat('passes', 1), s.stat('fails', 1)]).toEqual([3, 1]);
    expect(new Sink('rate').stat('rate', 1)).toBeUndefined();
  });

  // k6 docs, /javascript-api/k6-metrics/: "Trend: A metric that calculates statistics on the added values (min, max,
  // average, and percentiles)."
  it('gives a trend avg, min, max, med and percentiles by linear interpolation between neighbouring ranks', () => {
    const s = new Sink('trend');
    for (const v of [4, 1, 3, 2]) s.add(v);
    expect(s.stat('avg', 1)).toBe(2.5);
    expect(s.stat('min', 1)).toBe(1);
    expect(s.stat('max', 1)).toBe(4);
    expect(s.stat('med', 1)).toBe(2.5);
    expect(s.stat('p(90)', 1)).toBeCloseTo(3.7);
    expect(s.stat('p(0)', 1)).toBe(1);
    expect(s.stat('p(100)', 1)).toBe(4);
    expect(s.stat('count', 1)).toBe(4);
  });

  it('keeps every trend value past the first buffer and stays exact as values keep coming between reads', () => {
    const s = new Sink('trend');
    const all: number[] = [];
    let x = 7;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 3000; i++) {
        x = (x * 48271) % 2147483647;
        const v = x % 10_000;
        s.add(v);
        all.push(v);
      }
      const sorted = [...all].sort((a, b) => a - b);
      expect(Array.from(s.sorted())).toEqual(sorted);
      expect(s.stat('p(95)', 1)).toBeCloseTo(
        (() => {
          const i = 0.95 * (sorted.length - 1);
          const lo = sorted[Math.floor(i)] as number;
          return lo + ((sorted[Math.ceil(i)] as number) - lo) * (i - Math.floor(i));
        })(),
      );
    }
  });

  it('gives an empty trend no figures but a count of 0', () => {
    const s = new Sink('trend');
    expect(s.stat('avg', 1)).toBeUndefined();
    expect(s.stat('p(95)', 1)).toBeUndefined();
    expect(s.stat('count', 1)).toBe(0);
  });
});

describe('summary keys and values', () => {
  it('follows the legacy --summary-export keys for each type', () => {
    expect(summaryKeys('counter', [])).toEqual(['count', 'rate']);
    expect(summaryKeys('gauge', [])).toEqual(['value', 'min', 'max']);
    expect(summaryKeys('rate', [])).toEqual(['passes', 'fails', 'value']);
    expect(summaryKeys('trend', ['avg', 'p(99)'])).toEqual(['avg', 'p(99)']);
  });

  it('shows what an empty sink cannot give as 0', () => {
    expect(summaryValues(new Sink('trend'), ['avg', 'p(95)'], 1)).toEqual({ avg: 0, 'p(95)': 0 });
  });

  it('accepts the summaryTrendStats k6 accepts and refuses others', () => {
    expect(() => checkTrendStats(['avg', 'min', 'med', 'max', 'count', 'p(99.9)'])).not.toThrow();
    expect(() => checkTrendStats(['mean'])).toThrow(/not a trend stat/);
    expect(parsePercentileStat('p(101)')).toBeUndefined();
  });
});
