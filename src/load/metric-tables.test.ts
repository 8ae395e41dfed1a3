import { describe, expect, it } from 'vitest';
import type { K6Summary } from '../core/summary.js';
import { kindOf, metricTables, rateText } from './metric-tables.js';

const summary = {
  metrics: {
    http_req_failed: { passes: 0, fails: 525, value: 0, thresholds: { 'rate<0.01': false } },
    checks: { passes: 299, fails: 1, value: 0.9966666 },
    chat_conversation_completed: { passes: 75, fails: 0, value: 1 },
    http_reqs: { count: 525, rate: 35.0023 },
    vus: { value: 0, min: 0, max: 20 },
    'http_req_duration{op:chat.respond}': { avg: 711, med: 707, 'p(90)': 723, 'p(95)': 737, 'p(99)': 773, max: 837 },
  },
} as unknown as K6Summary;

describe('the tables of a load page', () => {
  it("reads http_req_failed's non-zero samples as failed requests, never as passes", () => {
    expect(rateText('http_req_failed', { passes: 0, fails: 525, value: 0 })).toBe('0.00 % (0 of 525 requests failed)');
    expect(rateText('http_req_failed', { passes: 21, fails: 504, value: 0.04 })).toBe('4.00 % (21 of 525 requests failed)');
  });

  it('reads checks as passed checks and any other rate as true samples', () => {
    expect(rateText('checks', { passes: 299, fails: 1, value: 0.9966666 })).toBe('99.67 % (299 of 300 checks passed)');
    expect(rateText('chat_conversation_completed', { passes: 75, fails: 0, value: 1 })).toBe('100.00 % (75 of 75 samples true)');
  });

  it('tells trends, rates, counters and gauges apart by the statistics the export gives them', () => {
    expect(Object.fromEntries(Object.entries(summary.metrics).map(([k, m]) => [k, kindOf(m)]))).toEqual({
      http_req_failed: 'rate',
      checks: 'rate',
      chat_conversation_completed: 'rate',
      http_reqs: 'counter',
      vus: 'gauge',
      'http_req_duration{op:chat.respond}': 'trend',
    });
  });

  it('puts each kind in a table of its own, in its own form', () => {
    const html = metricTables(summary);
    expect(html).not.toMatch(/passed \/ \d+ failed/);
    expect(html).toContain('<td>0.00 % (0 of 525 requests failed)</td>');
    expect(html).toContain('<td><code>http_reqs</code></td><td>525</td><td>35.00</td>');
    expect(html).toContain('<td><code>vus</code></td><td>0</td><td>0</td><td>20</td>');
    expect(html).toContain('<td><code>http_req_duration{op:chat.respond}</code></td><td>711</td><td>707</td><td>723</td><td>737</td><td>773</td><td>837</td>');
    expect(html.match(/<h2>/g)).toHaveLength(4);
  });
});
