import { describe, expect, it } from 'vitest';
import { analyse, boundaryInterval } from './analysis.js';
import { intervalText, verdict } from './report.js';
import type { CapacityResult } from './result.js';
import { cutShort } from './run.js';
import { broke, DEFAULT_SEARCH, keptUp, type SearchOptions, StepFailed, searchCapacity } from './search.js';
import { type SurfaceOptions, simulatedSurface } from './simulated-surface.js';
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

  it('keeps its low end below a rate whose steps disagreed, though a rate above that one held the one time it was stepped', () => {
    const steps = [at(0.75, true), at(0.875, true), at(0.9375, true), at(1, false), at(0.9375, false), at(0.852, true), at(0.852, false), at(0.775, true)];
    expect(boundaryInterval(steps, holds)).toMatchObject({ low: 0.775, high: 1, mixed: [0.852, 0.9375] });
  });

  it('gives none when nothing broke or nothing held', () => {
    expect(boundaryInterval([at(1, true), at(2, true)], holds)).toBeNull();
    expect(boundaryInterval([at(1, false), at(2, false)], holds)).toBeNull();
  });
});

/** Search options for a simulated surface: the CLI's defaults with the real tests' short steps (`--step 10s --warmup 2s`). */
const OPTIONS: SearchOptions = { ...DEFAULT_SEARCH, stepSeconds: 10, warmupSeconds: 2, maxSteps: 14 };

/** Seeds every property below is checked over. */
const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

/** A known capacity per seed, from 0.3 to 60 a second: small rates (a few conversations) and large ones alike. */
const capacityOf = (seed: number) => 0.3 * 200 ** ((seed * 0.618034) % 1);

/** Searches a simulated surface and analyses what it found, as runCapacity does. */
async function searchOn(surface: SurfaceOptions, o: SearchOptions = OPTIONS) {
  const s = simulatedSurface(surface);
  const outcome = await searchCapacity(s.runStep, o, undefined, s.now);
  return { outcome, analysis: analyse(outcome.steps, o, o.closed ? 'messaging-sockets' : 'chat-turns'), capacities: s.capacities };
}

/** What the command prints as its verdict for a simulated search. */
const verdictOf = (found: Awaited<ReturnType<typeof searchOn>>, unit = 'conversations') =>
  verdict({ analysis: found.analysis, steps: found.outcome.steps, unit } as unknown as CapacityResult);

const rates = (steps: readonly StepResult[], stage: StepResult['stage']) => steps.filter((s) => s.stage === stage).map((s) => s.offered_rate);

describe('the search on a simulated queue of known capacity', () => {
  it('steps coarsely by its factor from the start rate, up while steps hold and down while they break, until the outcome turns', async () => {
    for (const seed of SEEDS) {
      const { outcome } = await searchOn({ capacity: capacityOf(seed), noise: 0.05, seed });
      const coarse = outcome.steps.filter((s) => s.stage === 'coarse');
      expect(coarse[0]?.offered_rate, `seed ${seed}`).toBe(OPTIONS.startRate);
      for (const [i, s] of coarse.slice(1).entries()) {
        const before = coarse[i] as StepResult;
        expect(s.offered_rate, `seed ${seed}`).toBeCloseTo(
          broke(before, OPTIONS) ? before.offered_rate / OPTIONS.factor : before.offered_rate * OPTIONS.factor,
          9,
        );
      }
      const outcomes = coarse.map((s) => broke(s, OPTIONS));
      // Every coarse step but the last gave the first one's outcome; the last turned it.
      expect(
        outcomes.slice(0, -1).every((b) => b === outcomes[0]),
        `seed ${seed}`,
      ).toBe(true);
      if (coarse.length > 1) expect(outcomes.at(-1), `seed ${seed}`).toBe(!outcomes[0]);
    }
  });

  it('refines by halving the bracket between the highest rate that held and the lowest that broke, until it is within its precision', async () => {
    for (const seed of SEEDS) {
      const { outcome } = await searchOn({ capacity: capacityOf(seed), noise: 0.05, seed });
      expect(outcome.stopped, `seed ${seed}`).toBe('refined');
      for (const [i, s] of outcome.steps.entries()) {
        if (s.stage !== 'refine') continue;
        const before = outcome.steps.slice(0, i);
        const low = Math.max(...before.filter((b) => !broke(b, OPTIONS)).map((b) => b.offered_rate));
        const high = Math.min(...before.filter((b) => broke(b, OPTIONS)).map((b) => b.offered_rate));
        expect(s.offered_rate, `seed ${seed} step ${i}`).toBeCloseTo((low + high) / 2, 9);
      }
      const low = Math.max(...outcome.steps.filter((b) => !broke(b, OPTIONS)).map((b) => b.offered_rate));
      const high = Math.min(...outcome.steps.filter((b) => broke(b, OPTIONS)).map((b) => b.offered_rate));
      // Refined: within the precision, or the bracket is down to one arrival a minute.
      expect((high - low) / low <= OPTIONS.precision || high - low < 2 / 60, `seed ${seed}: [${low}, ${high}]`).toBe(true);
    }
  });

  it('finds a known capacity without noise just under it, within its precision', async () => {
    for (const seed of SEEDS) {
      const capacity = capacityOf(seed);
      const { analysis } = await searchOn({ capacity, seed });
      const found = analysis.max_sustainable_rate as number;
      expect(analysis.limited_by, `seed ${seed}`).toBe('target');
      expect(found, `seed ${seed}`).toBeLessThanOrEqual(capacity);
      expect(found, `seed ${seed}`).toBeGreaterThan(capacity / (1 + OPTIONS.precision) - 1 / 60);
    }
  });

  it('finds a known capacity within 15 % with the capacity moving 5 % either way from step to step, and says so', async () => {
    for (const seed of SEEDS) {
      const capacity = capacityOf(seed);
      const found = await searchOn({ capacity, noise: 0.05, seed });
      const rate = found.analysis.max_sustainable_rate as number;
      expect(found.analysis.limited_by, `seed ${seed}`).toBe('target');
      // What held was under some step's capacity; what broke was over another's, at most a precision above it.
      expect(rate, `seed ${seed}`).toBeLessThanOrEqual(capacity * 1.05);
      expect(rate, `seed ${seed}`).toBeGreaterThan((capacity * 0.95) / (1 + OPTIONS.precision) - 1 / 60);
      expect(Math.abs(rate - capacity) / capacity, `seed ${seed}`).toBeLessThanOrEqual(0.15);
      expect(verdictOf(found)).toContain(`Sustains ${rate.toFixed(2)} conversations/s with every SLO held`);
    }
  });

  it("finds the end-to-end test's known capacities, chat=10 from 1/s and chat=18 from 1.5/s (7 requests a conversation), within 15 %", async () => {
    for (const [perSecond, startRate] of [
      [10, 1],
      [18, 1.5],
    ] as const) {
      for (const seed of SEEDS) {
        const found = await searchOn({ capacity: perSecond / 7, noise: 0.05, seed }, { ...OPTIONS, startRate, maxSteps: 8 });
        const rate = found.analysis.max_sustainable_rate as number;
        expect([found.outcome.stopped, found.analysis.limited_by], `chat=${perSecond} seed ${seed}`).toEqual(['refined', 'target']);
        expect(Math.abs(rate - perSecond / 7) / (perSecond / 7), `chat=${perSecond} seed ${seed}`).toBeLessThanOrEqual(0.15);
        expect(verdictOf(found)).toContain(`Sustains ${rate.toFixed(2)} conversations/s with every SLO held`);
      }
    }
  });

  it('confirms the boundary with its repeats, each a pair of steps at the rate that held and the rate that broke', async () => {
    const o = { ...OPTIONS, repeats: 2, maxSteps: 30 };
    for (const seed of SEEDS) {
      const { outcome } = await searchOn({ capacity: capacityOf(seed), noise: 0.05, seed }, o);
      const confirm = outcome.steps.filter((s) => s.stage === 'confirm');
      expect(confirm.length % (2 * o.repeats), `seed ${seed}`).toBe(0);
      const refined = outcome.steps.filter((s) => s.stage !== 'confirm');
      let low = Math.max(...refined.filter((b) => !broke(b, o)).map((b) => b.offered_rate));
      let high = Math.min(...refined.filter((b) => broke(b, o)).map((b) => b.offered_rate));
      for (let level = 0; level * 2 * o.repeats < confirm.length; level++) {
        const pairs = confirm.slice(level * 2 * o.repeats, (level + 1) * 2 * o.repeats);
        expect(
          pairs.map((s) => s.offered_rate),
          `seed ${seed} level ${level}`,
        ).toEqual(Array.from({ length: o.repeats }, () => [low, high]).flat());
        // A repeat at the rate that held broke: the boundary is lower, one precision down.
        if (pairs.some((s) => s.offered_rate === low && broke(s, o))) [low, high] = [low / (1 + o.precision), low];
      }
    }
  });

  it('goes one precision down when a repeat at the rate that held breaks, and states the interval every step at its ends agrees with', async () => {
    const o = { ...OPTIONS, repeats: 2, maxSteps: 30 };
    let movedDown = 0;
    let noInterval = 0;
    for (const seed of SEEDS) {
      const { outcome, analysis } = await searchOn({ capacity: capacityOf(seed), noise: 0.08, seed }, o);
      const interval = analysis.interval;
      const at = (rate: number) => outcome.steps.filter((s) => s.offered_rate === rate);
      if (!interval) {
        // No rate broke on every repeat: the one that broke held again, and no interval is stated (only its low end).
        const above = outcome.steps.filter((s) => s.offered_rate > (analysis.max_sustainable_rate as number));
        expect(above.length > 0 && above.every((s) => at(s.offered_rate).some((r) => !broke(r, o))), `seed ${seed}`).toBe(true);
        noInterval++;
        continue;
      }
      expect(interval.low, `seed ${seed}`).toBe(analysis.max_sustainable_rate);
      expect(
        at(interval.low).every((s) => !broke(s, o)),
        `seed ${seed}`,
      ).toBe(true);
      expect(
        at(interval.high).every((s) => broke(s, o)),
        `seed ${seed}`,
      ).toBe(true);
      expect([interval.observations.low, interval.observations.high], `seed ${seed}`).toEqual([at(interval.low).length, at(interval.high).length]);
      for (const rate of interval.mixed) expect(new Set(at(rate).map((s) => broke(s, o))).size, `seed ${seed} at ${rate}`).toBe(2);
      expect(interval.wide, `seed ${seed}`).toBe((interval.high - interval.low) / interval.low > 0.25);
      if (outcome.steps.some((s) => s.stage === 'confirm' && broke(s, o) && s.offered_rate < interval.high)) movedDown++;
    }
    // The noise makes some repeats at the held rate break: the step down is exercised, not only the steady case. It
    // also makes some repeats at the rate that broke hold, which leaves no rate that broke every time: no interval.
    expect(movedDown).toBeGreaterThan(10);
    expect(noInterval).toBeLessThan(SEEDS.length / 4);
  });

  it('confirms without noise at the bracket itself: three steps at each end, nothing mixed, not wide', async () => {
    const { analysis } = await searchOn({ capacity: 2.57 }, { ...OPTIONS, repeats: 2, maxSteps: 30 });
    expect(analysis.interval).toMatchObject({ low: 2.5, high: 2.75, observations: { low: 3, high: 3 }, mixed: [], wide: false });
  });

  it('names the load generator as the limit when it runs out of VUs before the target breaks, and claims no capacity', async () => {
    for (const seed of SEEDS) {
      const capacity = capacityOf(seed);
      // As the end-to-end test's one-VU search: three steps at most, and a budget spent is no failure here.
      const found = await searchOn({ capacity, noise: 0.05, seed, generatorLimit: Math.min(capacity / 2, 3) }, { ...OPTIONS, maxSteps: 3 });
      expect(found.analysis.limited_by, `seed ${seed}`).toBe('load-generator');
      expect(cutShort({ stopped: found.outcome.stopped, analysis: found.analysis }), `seed ${seed}`).toBe(false);
      expect(found.analysis.max_sustainable_rate, `seed ${seed}`).toBeNull();
      expect(found.analysis.limit_reason, `seed ${seed}`).toMatch(
        /the engine ran out of VUs \(all 1 busy, \d+ iterations dropped\) before the target broke an SLO/,
      );
      expect(verdictOf(found)).toContain('The load generator was the limit: ');
    }
  });

  it('names the target when the generator could offer more than the target serves', async () => {
    for (const seed of SEEDS) {
      const capacity = capacityOf(seed);
      const { analysis } = await searchOn({ capacity, noise: 0.05, seed, generatorLimit: capacity * 2.5 });
      expect(analysis.limited_by, `seed ${seed}`).toBe('target');
      expect(analysis.limit_reason, `seed ${seed}`).toContain('the target broke http_req_duration p(95)<500');
    }
  });

  it('searches whole sessions in the closed model: the boundary it states holds the known figure between the most held and the fewest not', async () => {
    const closed = { sockets: 10, messageRate: 1 };
    const o: SearchOptions = { ...OPTIONS, startRate: 2, warmupSeconds: 4, maxSteps: 6, closed: { messageRate: 1 } };
    for (const seed of SEEDS) {
      const found = await searchOn({ capacity: 2.5, noise: 0.1, seed, closed }, o);
      expect(found.analysis.limited_by, `seed ${seed}`).toBe('target');
      expect([found.analysis.interval?.low, found.analysis.interval?.high], `seed ${seed}`).toEqual([2, 3]);
      expect(found.analysis.max_sustainable_rate, `seed ${seed}`).toBe(2);
      for (const s of found.outcome.steps) {
        expect(Number.isInteger(s.offered_rate)).toBe(true);
        expect(s.messages?.offered_per_s).toBe(s.offered_rate * 10);
      }
    }
  });

  it('stops at its step budget, its time budget, its maximum rate, or when nothing held, and says which', async () => {
    const budget = await searchOn({ capacity: 18 / 7 }, { ...OPTIONS, maxSteps: 1 });
    expect([budget.outcome.stopped, budget.outcome.steps.length]).toEqual(['step-budget', 1]);
    expect(cutShort({ stopped: budget.outcome.stopped, analysis: budget.analysis })).toBe(true);
    // Each 10 s step with its 2 s graceful stop: a 40 s budget starts three, and no fourth that would end after it.
    const time = await searchOn({ capacity: 50 }, { ...OPTIONS, maxSeconds: 40 });
    expect([time.outcome.stopped, time.outcome.steps.length, time.outcome.wall_s]).toEqual(['time-budget', 3, 36]);
    const top = await searchOn({ capacity: 50 }, { ...OPTIONS, maxRate: 20 });
    expect([top.outcome.stopped, top.analysis.limited_by, rates(top.outcome.steps, 'coarse')]).toEqual(['max-rate', 'none', [1, 2, 4, 8, 16, 20]]);
    const none = await searchOn({ capacity: 0.01 });
    expect([none.outcome.stopped, none.analysis.max_sustainable_rate]).toEqual(['nothing-held', null]);
  });

  it('ends with StepFailed when the engine could not run a step, naming the step and its exit code', async () => {
    const s = simulatedSurface({ capacity: 5, failAt: { index: 2, exitCode: 107 } });
    await expect(searchCapacity(s.runStep, OPTIONS, undefined, s.now)).rejects.toThrow(
      new StepFailed("the engine could not run step 2 at 4.00/s (exit 107); see its log in the report's .work folder"),
    );
  });
});
