import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH, keptUp } from './search.js';
import type { StepResult } from './step.js';

/** A step of 40 s with 12 s of warm-up at `offered`/s that completed `completed` iterations in its steady 28 s. */
const step = (offered: number, completed: number, spreadS?: number) =>
  ({ offered_rate: offered, duration_s: 40, warmup_s: 12, throughput: completed / 28, iteration_spread_s: spreadS }) as StepResult;

describe('the keep-up rule', () => {
  it('allows one iteration and the share for iterations of milliseconds, as before', () => {
    // 0.95 × 4/s × 28 s = 106.4, less one: 105.4.
    expect(keptUp(step(4, 106), DEFAULT_SEARCH)).toBe(true);
    expect(keptUp(step(4, 105), DEFAULT_SEARCH)).toBe(false);
    expect(keptUp(step(4, 105, 0), DEFAULT_SEARCH)).toBe(false);
  });

  it("takes a slow agent's spread of conversation times at the window's edges for noise, not for a knee", () => {
    // 4/s with iteration times spread by 3 s: the count at the edges varies by √(2·4·3/√π) ≈ 3.7; two of them are allowed.
    expect(keptUp(step(4, 99, 3), DEFAULT_SEARCH)).toBe(true);
    expect(keptUp(step(4, 97, 3), DEFAULT_SEARCH)).toBe(false);
  });

  it('still sees a queue that grows: a target at 5/s offered 5.75/s falls far behind', () => {
    expect(keptUp(step(5.75, 5 * 28, 3), DEFAULT_SEARCH)).toBe(false);
  });
});
