import { describe, expect, it } from 'vitest';
import type { CapacityAnalysis } from './analysis.js';
import { headroomLine, headroomOf, type ObservedPeak } from './headroom.js';

const observed: ObservedPeak = {
  file: 'traffic-model.json',
  busiest_hour_start: '2026-11-18T12:00:00.000Z',
  per_second: 1.85,
  concurrency_peak: 70,
  per_hour_of_day: Array.from({ length: 24 }, (_, h) => (h === 12 ? 6660 : 1000)),
};
const analysis = (o: Partial<CapacityAnalysis>): CapacityAnalysis =>
  ({
    max_sustainable_rate: 5,
    limited_by: 'target',
    interval: { low: 4.5, high: 5, observations: { low: 3, high: 3 }, mixed: [], wide: false },
    ...o,
  }) as CapacityAnalysis;

describe('headroom', () => {
  it('puts the busiest hour beside what holds the SLOs, with the share across the interval of the capacity figure', () => {
    const h = headroomOf(observed, analysis({}));
    expect(h?.share).toBeCloseTo(0.37, 6);
    expect(h?.share_range?.[0]).toBeCloseTo(0.37, 6);
    expect(h?.share_range?.[1]).toBeCloseTo(1.85 / 4.5, 6);
    expect(headroomLine(h as NonNullable<typeof h>, 'conversations', 5)).toBe(
      'The busiest hour (2026-11-18T12:00:00.000Z, 1.85 conversations/s, from traffic-model.json) uses 37 % of what holds the SLOs (5.00 conversations/s; ' +
        "37 %–41 % across the boundary's interval). Its window's concurrency peaked at 70 conversations.",
    );
  });

  it('gives no headroom when the search found no capacity of the target (the load generator was the limit, or nothing held)', () => {
    expect(headroomOf(observed, analysis({ limited_by: 'load-generator' }))).toBeUndefined();
    expect(headroomOf(observed, analysis({ max_sustainable_rate: null }))).toBeUndefined();
  });

  it('writes a small share to a tenth of a per cent', () => {
    const h = headroomOf({ ...observed, per_second: 0.041667, concurrency_peak: null }, analysis({ interval: null }));
    expect(headroomLine(h as NonNullable<typeof h>, 'conversations', 5)).toBe(
      'The busiest hour (2026-11-18T12:00:00.000Z, 0.0417 conversations/s, from traffic-model.json) uses 0.8 % of what holds the SLOs (5.00 conversations/s).',
    );
  });
});

describe('the growth beside the headroom', () => {
  const days = (n: number) =>
    Array.from({ length: n }, (_, d) => ({ date: new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10), per_second: 1 + 0.05 * d }));

  it("fits the model's whole days against the capacity found, leaving out those its window covers in part", () => {
    const records = { base_url: 'https://records.example', since: '2026-01-01T12:00:00.000Z', until: '2026-03-02T12:00:00.000Z', conversations: 9000 };
    const h = headroomOf({ ...observed, daily_peaks: days(61), records }, analysis({}));
    expect(h?.growth).toMatchObject({ status: 'reaches', days: 59, left_out: ['2026-01-01', '2026-03-02'], capacity: 5, reaches: '2026-03-22' });
  });

  it('gives no growth for a model that kept no daily peaks', () => {
    expect(headroomOf(observed, analysis({}))?.growth).toBeUndefined();
  });
});
