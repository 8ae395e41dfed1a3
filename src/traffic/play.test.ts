import { describe, expect, it } from 'vitest';
import { drawFrom } from '../load/vu/quantiles.js';
import { learnModel, quantiles, type TrafficRecord } from './learn.js';
import { learnedWorkload } from './play.js';

const T0 = Date.parse('2026-11-02T00:00:00Z');
const H = 3_600_000;
/** A day with `perHour(h)` conversations of 3 turns, 40 s long, in each hour h. */
function day(perHour: (h: number) => number): TrafficRecord[] {
  return Array.from({ length: 24 }, (_, h) =>
    Array.from(
      { length: perHour(h) },
      (_, i): TrafficRecord => ({
        startedAt: T0 + h * H + i * 1000,
        channel: 'CHAT',
        numTurns: 3,
        durationS: 40,
        inProgress: false,
        handoff: false,
        turns: [0, 1, 2].map((k) => ({ userAt: T0 + h * H + i * 1000 + k * 10_000, agentAt: T0 + h * H + i * 1000 + k * 10_000 + 1000, latencyS: 1 })),
      }),
    ),
  ).flat();
}
const model = learnModel(
  day((h) => (h === 12 ? 90 : 10)),
  [],
  { baseUrl: 'x', clientEnv: 'live', apiVersion: 'v3', fromMs: T0, toMs: T0 + 24 * H },
);

describe('learnedWorkload', () => {
  it("holds the busiest hour's arrival rate per hour, as long as asked, with a pool sized from the learned durations", () => {
    const w = learnedWorkload(model, { file: 'm.json', duration: '10m' });
    expect(w.shape).toMatchObject({ executor: 'constant-arrival-rate', rate: 90, timeUnit: '1h', duration: '10m' });
    expect(w.compress).toBe(1);
    expect(w.turns.p50).toBe(3);
    expect(w.thinkTimeS.p50).toBe(9);
  });

  it("plays the day's 24 hourly rates N times faster: 144 plays 24 h in 10 minutes", () => {
    const w = learnedWorkload(model, { file: 'm.json', compress: 144 });
    const shape = w.shape as { executor: string; stages: { target: number; duration: string }[]; startRate: number };
    expect(shape.executor).toBe('ramping-arrival-rate');
    expect(shape.stages).toHaveLength(24);
    expect(shape.stages.every((s) => s.duration === '25s')).toBe(true);
    expect(shape.stages[12]?.target).toBe(90 * 144);
    expect(shape.stages[0]?.target).toBe(10 * 144);
    expect(shape.startRate).toBe(10 * 144);
  });
});

describe('drawFrom', () => {
  it('reads quantiles as an inverse CDF: the median at one half, between neighbours in between, never below zero', () => {
    const q = quantiles(Array.from({ length: 101 }, (_, i) => i));
    expect(drawFrom(q, 0.5)).toBe(50);
    expect(drawFrom(q, 0.3)).toBeCloseTo(30, 6);
    expect(drawFrom(q, 0)).toBe(0);
    expect(drawFrom(quantiles([3, 3, 3]), 0.9)).toBe(3);
  });
});
