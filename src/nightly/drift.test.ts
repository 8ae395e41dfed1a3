import { describe, expect, it } from 'vitest';
import { syntheticNights } from '../../tests/synthetic-history.js';
import { DRIFT, levelChange, levelsOf } from './drift.js';
import type { NightMetric } from './metrics.js';
import { noisyNights, seeded } from './noise.js';
import { BAND, judge } from './verdict.js';

const P95 = 'http_req_duration p95';
const lower = { unit: 'ms', better: 'lower' } as const;
const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
/** n nights log-normal around `level` with a spread of 5 %. */
const nights = (seed: number, n: number, level: number) => {
  const r = seeded(seed);
  return Array.from({ length: n }, () => level * Math.exp(0.05 * gauss(r)));
};

describe("a metric's level over the history", () => {
  it('calls a lasting step up in latency regressed, from the night it began', () => {
    const xs = [...nights(1, 30, 100), ...nights(2, 10, 125)];
    expect(levelChange(levelsOf(xs, 'ms'), 0, lower, BAND)).toMatchObject({ status: 'regressed', since: 30 });
  });

  it('leaves a lasting move within the floor unchanged, however sure it is', () => {
    const r = seeded(3);
    const quiet = Array.from({ length: 60 }, (_, i) => (i < 30 ? 100 : 108) * Math.exp(0.005 * gauss(r)));
    const levels = levelsOf(quiet, 'ms');
    expect(levels.points.map((c) => c.index)).toEqual([30]);
    expect(levelChange(levels, 0, lower, BAND).status).toBe('unchanged');
  });

  it('judges throughput by its own worse direction: down is regressed, up improved', () => {
    const down = [...nights(4, 30, 50), ...nights(5, 10, 40)];
    const up = [...nights(6, 30, 50), ...nights(7, 10, 60)];
    expect(levelChange(levelsOf(down, 'per_s'), 0, { unit: 'per_s', better: 'higher' }, BAND).status).toBe('regressed');
    expect(levelChange(levelsOf(up, 'per_s'), 0, { unit: 'per_s', better: 'higher' }, BAND).status).toBe('improved');
  });

  it('calls an error rate up by a percentage point regressed, and one up by a tenth of one unchanged', () => {
    const r = seeded(8);
    const rate = (jump: number) => Array.from({ length: 40 }, (_, i) => 0.001 + 0.0003 * gauss(r) + (i >= 30 ? jump : 0));
    expect(levelChange(levelsOf(rate(0.01), 'ratio'), 0, { unit: 'ratio', better: 'lower' }, BAND).status).toBe('regressed');
    expect(levelChange(levelsOf(rate(0.001), 'ratio'), 0, { unit: 'ratio', better: 'lower' }, BAND).status).toBe('unchanged');
  });

  it('lets a regression that was fixed rest: tonight is back at the first level', () => {
    const xs = [...nights(9, 30, 100), ...nights(10, 15, 140), ...nights(11, 10, 100)];
    const levels = levelsOf(xs, 'ms');
    expect(levels.points.map((c) => c.index)).toEqual([30, 45]);
    expect(levelChange(levels, 0, lower, BAND).status).toBe('unchanged');
    // Against the regressed stretch (a baseline pinned there), tonight is better.
    expect(levelChange(levels, 35, lower, BAND).status).toBe('improved');
  });
});

/** Night by night, as each night was judged then: the first night from `from` whose verdict says `hit`, or undefined. */
function firstNight(history: Record<string, NightMetric>[], from: number, hit: (v: ReturnType<typeof judge>) => boolean): number | undefined {
  for (let t = from; t < history.length; t++) if (hit(judge(history.slice(0, t), history[t] as Record<string, NightMetric>))) return t;
  return undefined;
}

describe('the verdict on slow drift, measured on seeded histories', () => {
  it('catches a 1 %-a-night creep from night 20 within 20 nights in at least 95 of 100 histories, where the band alone almost never does', () => {
    const delays: number[] = [];
    let band = 0;
    for (let h = 0; h < 100; h++) {
      const history = syntheticNights({ seed: 100 + h, nights: 41, creep: { from: 20, perNight: 0.01 } });
      const p95 = (v: ReturnType<typeof judge>) => v.metrics.find((m) => m.metric === P95);
      const night = firstNight(history, 20, (v) => p95(v)?.drift?.status === 'regressed' && v.status === 'regressed');
      if (night !== undefined) delays.push(night - 20);
      if (firstNight(history, 20, (v) => p95(v)?.band === 'regressed') !== undefined) band++;
    }
    delays.sort((a, b) => a - b);
    expect(delays.length).toBeGreaterThanOrEqual(95);
    expect(delays[Math.floor(delays.length / 2)]).toBeLessThanOrEqual(16);
    expect(band).toBeLessThanOrEqual(5);
  });

  it('names the night a drift started near where the creep began, and tonight as the drifted level', () => {
    const history = syntheticNights({ seed: 7, nights: 61, creep: { from: 20, perNight: 0.02 } });
    const v = judge(history.slice(0, -1), history.at(-1) as Record<string, NightMetric>);
    const p95 = v.metrics.find((m) => m.metric === P95);
    expect(p95?.status).toBe('regressed');
    expect(p95?.band).toBe('unchanged');
    expect(p95?.drift?.since.run).toBeGreaterThanOrEqual(21);
    expect(p95?.drift?.since.run).toBeLessThanOrEqual(27);
    expect((p95?.drift?.to ?? 0) / (p95?.drift?.from ?? 1)).toBeGreaterThan(1.5);
  });

  it('still flags a step on its night whenever the band does, and every step within five nights', () => {
    for (const [by, noise, onItsNight] of [
      [1.3, 0.03, 90],
      [1.3, 0.05, 30],
      [1.6, 0.05, 90],
    ] as const) {
      let night = 0;
      let withinFive = 0;
      for (let h = 0; h < 100; h++) {
        const history = syntheticNights({ seed: 300 + h, nights: 46, noise, step: { at: 40, by } });
        const v = judge(history.slice(0, 40), history[40] as Record<string, NightMetric>);
        const p95 = v.metrics.find((m) => m.metric === P95);
        expect(p95?.status === 'regressed').toBe(p95?.band === 'regressed');
        if (p95?.status === 'regressed') night++;
        if (firstNight(history, 40, (x) => x.metrics.find((m) => m.metric === P95)?.status === 'regressed') !== undefined) withinFive++;
      }
      expect(night, `+${Math.round((by - 1) * 100)} % at ${noise * 100} % noise`).toBeGreaterThanOrEqual(onItsNight);
      expect(withinFive).toBe(100);
    }
  });

  it('raises at most one false alarm per 1,000 nights of pure noise, judged night by night, no more than the band alone', () => {
    for (const [name, make] of [
      ['5 % noise', (h: number) => syntheticNights({ seed: 500 + h, nights: 80 })],
      ['src/nightly/noise.ts', (h: number) => noisyNights(seeded(600 + h), 80)],
    ] as const) {
      let judged = 0;
      let alarms = 0;
      let band = 0;
      for (let h = 0; h < 100; h++) {
        const history = make(h);
        for (let t = BAND.minBaseline; t < history.length; t++) {
          const v = judge(history.slice(0, t), history[t] as Record<string, NightMetric>);
          judged++;
          if (v.status === 'regressed') alarms++;
          if (v.metrics.some((m) => m.band === 'regressed')) band++;
        }
      }
      expect(alarms, name).toBeLessThanOrEqual(judged / 1000);
      expect(alarms, name).toBe(band);
    }
  });

  it("would raise many with Otava's default p-value of 0.001, which is why the drift asks for 1e-6", () => {
    const o = { ...DRIFT, maxP: 0.001 };
    let judged = 0;
    let alarms = 0;
    for (let h = 0; h < 40; h++) {
      const history = noisyNights(seeded(600 + h), 80);
      for (let t = BAND.minBaseline; t < history.length; t++, judged++) {
        const drifted = Object.entries(history[t] as Record<string, NightMetric>).some(([name, m]) => {
          const levels = levelsOf(
            history.slice(0, t + 1).map((n) => (n[name] as NightMetric).value),
            m.unit,
            o,
          );
          return levelChange(levels, 0, m, BAND, o).status === 'regressed';
        });
        if (drifted) alarms++;
      }
    }
    expect(alarms).toBeGreaterThan(judged / 1000);
  });
});
