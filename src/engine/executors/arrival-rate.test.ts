import { describe, expect, it } from 'vitest';
import { planScenarios } from '../options.js';
import { arrivalTimes } from './arrival-rate.js';
import { vuTarget } from './vus.js';

const plan = (s: Record<string, unknown>) => planScenarios({ scenarios: { s } })[0] as ReturnType<typeof planScenarios>[number];

describe('arrival schedules', () => {
  // constant-arrival-rate docs: "At a rate of 10 with a timeUnit of 1s, each iteration starts about every tenth of a second."
  it('spaces a constant rate evenly: 10 per second is one every 100 ms, and none at or past the duration', () => {
    const at = arrivalTimes(plan({ executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1 }));
    expect([0, 1, 2, 9].map(at)).toEqual([0, 100, 200, 900]);
    expect(at(10)).toBeUndefined();
  });

  it('counts a rate per timeUnit: 30 per minute is one every 2 s', () => {
    const at = arrivalTimes(plan({ executor: 'constant-arrival-rate', rate: 30, timeUnit: '1m', duration: '10s', preAllocatedVUs: 1 }));
    expect([0, 1, 4].map(at)).toEqual([0, 2000, 8000]);
    expect(at(5)).toBeUndefined();
  });

  // ramping-arrival-rate docs: the rate changes linearly within a stage, from startRate.
  it('ramps linearly: 0 to 100 per second over 2 s starts 100 iterations, denser towards the end', () => {
    const at = arrivalTimes(
      plan({ executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', preAllocatedVUs: 1, stages: [{ target: 100, duration: '2s' }] }),
    );
    const times: number[] = [];
    for (let i = 0; ; i++) {
      const t = at(i);
      if (t === undefined) break;
      times.push(t);
    }
    expect(times).toHaveLength(100);
    // The integral of a ramp from 0 to 100/s reaches 25 at 1 s: a quarter of the arrivals fall in the first half.
    expect(times.filter((t) => t < 1000)).toHaveLength(25);
    expect(times.every((t, i) => i === 0 || t >= (times[i - 1] as number))).toBe(true);
  });

  it('holds a stage whose start and target are equal at that rate', () => {
    const at = arrivalTimes(
      plan({
        executor: 'ramping-arrival-rate',
        startRate: 4,
        timeUnit: '1s',
        preAllocatedVUs: 1,
        stages: [
          { target: 4, duration: '1s' },
          { target: 0, duration: '1s' },
        ],
      }),
    );
    expect([0, 1, 2, 3].map(at)).toEqual([0, 250, 500, 750]);
    expect(at(4)).toBe(1000);
  });
});

describe('ramping-vus targets', () => {
  // ramping-vus docs: VUs ramp linearly from startVUs to each stage's target.
  it('interpolates the VU count within a stage and holds the last target', () => {
    const stages = [
      { durationMs: 1000, target: 10 },
      { durationMs: 1000, target: 0 },
    ];
    expect([0, 500, 1000, 1500, 5000].map((t) => vuTarget(0, stages, t))).toEqual([0, 5, 10, 5, 0]);
  });
});
