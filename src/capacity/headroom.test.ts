import { describe, expect, it } from 'vitest';
import type { CapacityAnalysis } from './analysis.js';
import { growthOf, headroomLine, headroomOf, type ObservedPeak } from './headroom.js';

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

describe('the growth of the daily peak', () => {
  /** `days` daily peaks from 2026-01-01, rising `perDay` a day from `start`, with a seeded wobble of ±`wobble`. */
  const peaks = (days: number, start: number, perDay: number, wobble = 0) =>
    Array.from({ length: days }, (_, d) => ({
      date: new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10),
      per_second: start + perDay * d + wobble * Math.sin(d * 12.9898),
    }));

  it('needs 8 weeks of days', () => {
    expect(growthOf(peaks(55, 1, 0.01), 5)).toBeUndefined();
    expect(growthOf(peaks(56, 1, 0.01), 5)).toBeDefined();
  });

  it('finds the day a steady rise reaches the capacity, and a range around it when the days wobble', () => {
    // 1/s rising 0.05/s a day reaches 5/s on day 80: 2026-03-22.
    expect(growthOf(peaks(60, 1, 0.05), 5)).toMatchObject({ days: 60, reaches_from: '2026-03-22', reaches_to: '2026-03-22' });
    const g = growthOf(peaks(60, 1, 0.05, 0.3), 5);
    expect(g?.reaches_from && g.reaches_from < '2026-03-22').toBe(true);
    expect(g?.reaches_to && g.reaches_to > '2026-03-22').toBe(true);
  });

  it('gives no date for a peak that barely grows, and says so, rather than failing on a date past the calendar', () => {
    // Flat days summed in floating point leave a slope of about 1e-19, whose reach lies past any date.
    const flat = Array.from({ length: 56 }, (_, d) => ({ date: new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10), per_second: 0.004444 }));
    const barely = flat.map((p, d) => ({ ...p, per_second: p.per_second + d * 1e-12 }));
    const g = growthOf(barely, 5);
    expect(g).toMatchObject({ days: 56, reaches_from: null, reaches_to: null });
    expect(g?.per_day).toBeGreaterThan(0);
    const h = headroomOf({ ...observed, daily_peaks: barely }, analysis({}));
    expect(headroomLine(h as NonNullable<typeof h>, 'conversations', 5)).toMatch(
      /a day: at that pace it does not reach the capacity within a thousand years\.$/,
    );
    expect(growthOf(flat, 5)).toMatchObject({ reaches_from: null, reaches_to: null });
  });

  it('says a flat or falling peak does not reach the capacity, in the headroom line', () => {
    const h = headroomOf({ ...observed, daily_peaks: peaks(60, 1.85, -0.001, 0.01) }, analysis({}));
    expect(h?.growth?.per_day).toBeLessThan(0);
    expect(headroomLine(h as NonNullable<typeof h>, 'conversations', 5)).toMatch(
      /Over 60 days the daily peak moved -.* conversations\/s a day: it is not growing/,
    );
  });
});
