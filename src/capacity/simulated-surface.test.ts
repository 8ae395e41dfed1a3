import { describe, expect, it } from 'vitest';
import { broke, DEFAULT_SEARCH } from './search.js';
import { simulatedSurface } from './simulated-surface.js';
import type { StepPlan } from './step.js';

const plan = (index: number, rate: number): StepPlan => ({ index, stage: 'coarse', rate, durationS: 10, warmupS: 2, maxVUs: 100, gracefulStopS: 2 });

describe('the simulated surface', () => {
  it('holds every SLO and keeps up below its capacity, and breaks above it', async () => {
    const s = simulatedSurface({ capacity: 5 });
    const under = await s.runStep(plan(0, 4.9));
    const over = await s.runStep(plan(1, 5.1));
    expect([under.slo_held, broke(under, DEFAULT_SEARCH), under.throughput]).toEqual([true, false, 4.9]);
    expect([over.slo_held, broke(over, DEFAULT_SEARCH), over.throughput, over.k6_exit_code]).toEqual([false, true, 5, 99]);
  });

  it('moves its capacity by the seeded noise, the same for the same seed, within the noise asked for', async () => {
    const capacities = async (seed: number) => {
      const s = simulatedSurface({ capacity: 10, noise: 0.1, seed });
      for (let i = 0; i < 50; i++) await s.runStep(plan(i, 1));
      return s.capacities;
    };
    const a = await capacities(3);
    expect(await capacities(3)).toEqual(a);
    expect(await capacities(4)).not.toEqual(a);
    expect(a.every((c) => c >= 9 && c <= 11)).toBe(true);
    expect(new Set(a).size).toBe(50);
  });

  it('drops the iterations its generator cannot start, with every VU busy, while the target holds', async () => {
    const s = await simulatedSurface({ capacity: 70, generatorLimit: 2 }).runStep(plan(0, 4));
    expect([s.slo_held, s.dropped_iterations, s.vus_in_use, s.vus_cap]).toEqual([true, 20, 1, 1]);
  });

  it('keeps time of its own: each step moves its clock by the step and its graceful stop, at once', async () => {
    const s = simulatedSurface({ capacity: 5 });
    await s.runStep(plan(0, 1));
    await s.runStep(plan(1, 2));
    expect(s.now()).toBe(24_000);
  });
});
