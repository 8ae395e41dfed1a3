import { describe, expect, it } from 'vitest';
import { boundaryInterval } from './analysis.js';
import { intervalText } from './report.js';
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

describe('the boundary interval', () => {
  /** A step at `offered`/s that held or broke. */
  const at = (offered: number, holds: boolean) => ({ offered_rate: offered, holds }) as unknown as StepResult & { holds: boolean };
  const holds = (s: StepResult) => (s as StepResult & { holds: boolean }).holds;

  it("is the search's bracket when every rate was stepped once", () => {
    const i = boundaryInterval([at(2, true), at(4, true), at(8, false), at(6, false), at(5, true)], holds);
    expect(i).toEqual({ low: 5, high: 6, observations: { low: 1, high: 1 }, mixed: [], wide: false });
    expect(intervalText(i as NonNullable<typeof i>, 'conversations/s')).toBe(
      "The boundary lies between 5.00 and 6.00 conversations/s (9.1 % either side of 5.50; one step each, the search's bracket).",
    );
  });

  it('moves its low end down when a repeat at the rate that held broke, and names the rate whose steps disagreed', () => {
    const steps = [at(4, true), at(8, false), at(5, true), at(6, false), at(5, false), at(6, false), at(4.55, true), at(4.55, true), at(5, true)];
    const i = boundaryInterval(steps, holds);
    expect(i).toMatchObject({ low: 4.55, high: 6, observations: { low: 2, high: 2 }, mixed: [5], wide: true });
    expect(intervalText(i as NonNullable<typeof i>, 'walks/s')).toMatch(
      /steps at 5\.00 walks\/s held and broke\)\. Too wide to plan on \(over 25 % of its low end\): plan on 4\.55 walks\/s/,
    );
  });

  it('gives none when nothing broke or nothing held', () => {
    expect(boundaryInterval([at(1, true), at(2, true)], holds)).toBeNull();
    expect(boundaryInterval([at(1, false), at(2, false)], holds)).toBeNull();
  });
});
