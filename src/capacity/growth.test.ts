import { describe, expect, it } from 'vitest';
import { seeded } from '../nightly/noise.js';
import { GROWTH_MIN_DAYS, growthLine, growthOf, HORIZON_DAYS, wholeDays } from './growth.js';

const DAY_MS = 86_400_000;
const dayOf = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);

/** A standard normal draw from a seeded uniform stream (Box–Muller). */
const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/**
 * `days` daily peaks from 2026-01-01 whose true level on day d is `level(d)`, each times e^(noise·z) (z seeded normal),
 * or plus noise·z with `additive`: the noise each shape of growth assumes.
 */
const peaks = (days: number, level: (d: number) => number, noise = 0, seed = 1, additive = false) => {
  const r = seeded(seed);
  return Array.from({ length: days }, (_, d) => {
    const z = normal(r);
    return { date: dayOf(d), per_second: additive ? level(d) + noise * z : level(d) * Math.exp(noise * z) };
  });
};

describe('the growth of the daily peak', () => {
  it('finds the day an exact straight rise reaches the capacity', () => {
    // 1/s rising 0.05/s a day reaches 5/s on day 80: 2026-03-22.
    const g = growthOf(
      peaks(60, (d) => 1 + 0.05 * d),
      5,
    );
    expect(g).toMatchObject({ status: 'reaches', shape: 'linear', days: 60, reaches: '2026-03-22', reaches_from: '2026-03-22', reaches_to: '2026-03-22' });
    expect(g.per_day).toBeCloseTo(0.05, 9);
  });

  it('recovers the date a known compounding growth reaches the capacity within its interval, from noisy days', () => {
    // 0.5/s growing 1 % a day, each day ±10 %: the true level reaches 2/s on day ln 4 / ln 1.01 = 139.3.
    const truth = dayOf(Math.ceil(Math.log(4) / Math.log(1.01)));
    const g = growthOf(
      peaks(56, (d) => 0.5 * 1.01 ** d, 0.1, 7),
      2,
    );
    expect(g.status).toBe('reaches');
    expect(g.shape).toBe('compound');
    expect([g.reaches_from, truth, g.reaches_to].sort()).toEqual([g.reaches_from, truth, g.reaches_to]);
    expect(g.share_per_day).toBeGreaterThan(0.005);
    expect(g.share_per_day).toBeLessThan(0.015);
  });

  it("holds the true date in its range for nearly every seed, straight or compounding (the range is a day's 95 % prediction interval)", () => {
    let held = 0;
    const seeds = 100;
    for (let seed = 1; seed <= seeds; seed++) {
      const compound = seed % 2 === 0;
      const level = compound ? (d: number) => 0.5 * 1.01 ** d : (d: number) => 0.5 + 0.01 * d;
      // Compounding reaches 2/s on day 139.3; the straight line on day 150.
      const truth = compound ? Math.log(4) / Math.log(1.01) : 150;
      // Each day ±8 %, as a share for the compounding growth, of the first day's level for the straight one.
      const g = growthOf(peaks(42, level, compound ? 0.08 : 0.04, seed, !compound), 2);
      const at = (date: string | null | undefined) => (date ? (Date.parse(date) - Date.parse(dayOf(0))) / DAY_MS : Number.POSITIVE_INFINITY);
      if (g.status === 'reaches' && at(g.reaches_from) <= truth && truth <= at(g.reaches_to) + 1) held++;
    }
    expect(held / seeds).toBeGreaterThanOrEqual(0.9);
  });

  it('says flat traffic is not growing, and gives a date for almost none of many noisy flat histories', () => {
    const g = growthOf(
      peaks(56, () => 1.85, 0.1, 3),
      5,
    );
    expect(g.status).toBe('not-growing');
    expect(g.reaches).toBeUndefined();
    expect(growthLine(g, 'conversations', 'traffic-model.json')).toMatch(
      /the daily peak moved [+-][\d.e-]+ conversations\/s a day .*: it is not growing beyond its day-to-day spread \(the slope's interval holds zero\)/,
    );
    let dated = 0;
    for (let seed = 1; seed <= 200; seed++)
      if (
        growthOf(
          peaks(28, () => 1.85, 0.1, seed),
          5,
        ).status !== 'not-growing'
      )
        dated++;
    // A one-sided 2.5 % of flat histories have a slope whose 95 % interval lies above zero.
    expect(dated / 200).toBeLessThanOrEqual(0.05);
  });

  it('says too few days are too few, and how many it needs', () => {
    const g = growthOf(
      peaks(GROWTH_MIN_DAYS - 1, (d) => 1 + 0.05 * d),
      5,
    );
    expect(g).toEqual({ status: 'too-few', days: 13, needed: 14, left_out: [], capacity: 5, level: 0.95 });
    expect(growthLine(g, 'conversations', 'm.json')).toBe(
      "Traffic growth (daily peaks from m.json, against this search's 5.00 conversations/s): 13 whole days are too few to tell a growth (14 needed); " +
        'learn the model over a longer window (dialtone traffic learn --since 56d).',
    );
    expect(
      growthOf(
        peaks(GROWTH_MIN_DAYS, (d) => 1 + 0.05 * d),
        5,
      ).status,
    ).toBe('reaches');
  });

  it('gives no date for flat days summed in floating point, nor past its horizon for a peak that barely grows', () => {
    const flat = peaks(56, () => 0.004444);
    expect(growthOf(flat, 5).status).toBe('not-growing');
    const barely = flat.map((p, d) => ({ ...p, per_second: p.per_second + d * 1e-12 }));
    const g = growthOf(barely, 5);
    expect(g).toMatchObject({ status: 'beyond', reaches: null, reaches_to: null, horizon: dayOf(55 + HORIZON_DAYS) });
    expect(growthLine(g, 'conversations', 'm.json')).toMatch(/: at that pace it does not reach the capacity within 365 days \(by 2027-02-25\)\.$/);
  });

  it('says a falling peak is falling, and a peak at the capacity already is', () => {
    const falling = growthOf(
      peaks(60, (d) => 3 - 0.02 * d, 0.02, 5),
      5,
    );
    expect(falling.status).toBe('not-growing');
    expect(growthLine(falling, 'conversations', 'm.json')).toMatch(/: it is falling, so no date is given\.$/);
    const there = growthOf(
      peaks(30, (d) => 4 + 0.1 * d, 0.01, 5),
      5,
    );
    expect(there.status).toBe('reached');
    expect(growthLine(there, 'conversations', 'm.json')).toMatch(/the fitted peak on 2026-01-30, [\d.]+ conversations\/s, is already at the capacity\.$/);
  });

  it("leaves out the days the model's window covers only part of", () => {
    const days = peaks(5, () => 1);
    expect(wholeDays(days, '2026-01-01T10:00:00.000Z', '2026-01-05T10:00:00.000Z')).toEqual({
      kept: days.slice(1, 4),
      left_out: ['2026-01-01', '2026-01-05'],
    });
    expect(wholeDays(days, '2026-01-01T00:00:00.000Z', '2026-01-06T00:00:00.000Z').left_out).toEqual([]);
  });
});
