// Each scenario's unit of work and the reference-target surface it loads, as its declaration says
// (scenarios/NAME.scenario.ts, `unit`), and the search's defaults and closed-model words drawn from it.

import type { ClosedWork, LearnedWorkload, ScenarioUnit } from '../load/config.js';
import { declarationOf, SCENARIOS } from '../load/scenario-declarations.js';
import { DEFAULT_SEARCH, type SearchOptions } from './search.js';
import type { StepResult } from './step.js';

export type { ClosedWork, ScenarioUnit };

/** Each scenario's unit, by name, from its declaration. */
export const SCENARIO_UNITS: Readonly<Record<string, ScenarioUnit>> = Object.freeze(
  Object.fromEntries(Object.entries(SCENARIOS).map(([name, d]) => [name, d.unit])),
);

/** The unit of a scenario, as its declaration says; every scenario declares one. */
export const unitOf = (scenario: string): ScenarioUnit => declarationOf(scenario).unit;

/**
 * The closed model's words for a scenario; one that declares none (it has no closed model) gets its own unit and plain
 * pieces of work, never another scenario's.
 *
 * @example
 * closedWorkOf('voice-calls').work; // 'turns'
 */
export function closedWorkOf(scenario: string): ClosedWork {
  const { unit, closedWork } = unitOf(scenario);
  return (
    closedWork ?? {
      held: unit,
      work: 'pieces of work',
      done: 'asked',
      pace: (k, rate) => `each asked for ${(k * rate).toFixed(2)} pieces of work/s`,
      doing: 'asking for pieces of work at',
      rate: 'pieces of work a second each',
    }
  );
}

/**
 * The work answered against the work offered a second, in the closed model's words.
 *
 * @example
 * answeredOf(closedWorkOf('voice-calls'), { offered_per_s: 3, answered_per_s: 2.9 }); // '2.9 of the 3.0 turns/s taken'
 */
export const answeredOf = (w: ClosedWork, m: NonNullable<StepResult['messages']>): string =>
  `${m.answered_per_s.toFixed(1)} of the ${m.offered_per_s.toFixed(1)} ${w.work}/s ${w.done}`;

/**
 * The closed model's search defaults: one session held first, doubled; short steps, since a held session's work is
 * steady once its setup (in the warm-up) is done, and a graceful stop that lets the last replies arrive.
 */
export const CLOSED_SEARCH: Partial<SearchOptions> = { startRate: 1, maxRate: 500, stepSeconds: 15, warmupSeconds: 5, gracefulStopSeconds: 8 };

/** The longest warm-up a learned search takes by default: conversations longer than this are few. */
const LEARNED_WARMUP_MAX_S = 120;
/** A learned step's steady part by default: long enough for its turns to give the SLOs' percentiles. */
const LEARNED_STEADY_S = 30;

/**
 * A learned search's step: conversations arrive from the step's start and each lasts as the model says, so the load
 * on the target builds for about the longest of them; the warm-up lasts the model's p95 duration (at most 2 min) and
 * the steady part 30 s after it. Running conversations are not waited for at the end: their turns after the steady
 * part are tagged as the tail and judge nothing. The time budget allows 12 such steps.
 *
 * @example
 * learnedSearch(learned) // the seeded model (p95 70 s): { warmupSeconds: 70, stepSeconds: 100, maxSeconds: 1260, … }
 */
export function learnedSearch(learned: Pick<LearnedWorkload, 'durationS'>): Partial<SearchOptions> {
  const warmupSeconds = Math.max(3, Math.min(LEARNED_WARMUP_MAX_S, Math.ceil(learned.durationS.p95)));
  const stepSeconds = warmupSeconds + LEARNED_STEADY_S;
  return { warmupSeconds, stepSeconds, gracefulStopSeconds: 2, maxSeconds: Math.max(DEFAULT_SEARCH.maxSeconds, 12 * (stepSeconds + 5)) };
}

/** The search's defaults for a scenario: the generic ones, with the scenario's own where its iterations need them. */
export const searchDefaultsFor = (scenario: string, closed = false, learned?: Pick<LearnedWorkload, 'durationS'>): SearchOptions => ({
  ...DEFAULT_SEARCH,
  ...(closed ? { ...CLOSED_SEARCH, ...unitOf(scenario).closedSearch } : unitOf(scenario).search),
  ...(learned ? learnedSearch(learned) : {}),
});
