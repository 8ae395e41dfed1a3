import { describe, expect, it } from 'vitest';
import { type K6Summary, stat } from './summary.js';

describe('stat', () => {
  const summary: K6Summary = { metrics: { http_reqs: { count: 12, rate: 0.4 }, checks: { passes: 3, fails: 0, thresholds: { 'rate>0.9': false } } } };

  it('reads a number of a metric by its stat name', () => {
    expect(stat(summary, 'http_reqs', 'count')).toBe(12);
    expect(stat(summary, 'checks', 'passes')).toBe(3);
  });

  it('gives undefined for a missing metric, a missing stat and a stat that is not a number', () => {
    expect(stat(summary, 'vus', 'value')).toBeUndefined();
    expect(stat(summary, 'http_reqs', 'p(95)')).toBeUndefined();
    expect(stat(summary, 'checks', 'thresholds')).toBeUndefined();
  });
});
