import { describe, expect, it } from 'vitest';
import { thresholdsOf } from './summary.js';

describe('thresholdsOf', () => {
  const summary = {
    metrics: {
      'http_req_duration{op:chat.respond}': { 'p(95)': 3.2, med: 1, thresholds: { 'p(95)<500': false } },
      http_req_failed: { value: 0.2, passes: 2, fails: 8, thresholds: { 'rate<0.01': true } },
      chat_turns: { count: 10, rate: 2 },
    },
  };

  it('reads k6 true as a failed threshold and false as a held one', () => {
    const t = thresholdsOf(summary);
    expect(t.find((x) => x.metric === 'http_req_failed')?.passed).toBe(false);
    expect(t.find((x) => x.metric.startsWith('http_req_duration'))?.passed).toBe(true);
  });

  it('reports the value each threshold was judged on', () => {
    const t = thresholdsOf(summary);
    expect(t.find((x) => x.metric === 'http_req_failed')?.value).toBe(0.2);
    expect(t.find((x) => x.metric.startsWith('http_req_duration'))?.value).toBe(3.2);
  });

  it('lists nothing for metrics without thresholds', () => {
    expect(thresholdsOf(summary).some((x) => x.metric === 'chat_turns')).toBe(false);
  });
});
