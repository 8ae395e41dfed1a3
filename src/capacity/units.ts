// Each scenario's unit of work and the reference-target surface it loads: a known capacity of N
// pieces of work per second on that surface (src/reference-target/capacity.ts: an HTTP request, a WebSocket
// handshake or a client frame) is N / (pieces per iteration) iterations per second.

import type { LearnedWorkload } from '../load/config.js';
import { DEFAULT_SEARCH, type SearchOptions } from './search.js';

export interface ScenarioUnit {
  /** What one iteration is, plural: the unit of the offered rate. */
  readonly unit: string;
  /** The surface (a key of src/reference-target/surfaces.ts) whose requests the iteration makes. */
  readonly surface: string;
  /** Pieces of work one iteration gives that surface, when fixed; otherwise HTTP requests measured per run. */
  readonly requestsPerIteration?: number;
  /**
   * The search's defaults for this scenario where the generic ones do not fit its iterations: a step must hold many
   * of them, the warm-up must outlast one (or the steady part starts empty), and k6 must let one finish.
   */
  readonly search?: Partial<SearchOptions>;
  /** The closed model's search defaults where CLOSED_SEARCH's do not fit (a held call takes a turn every few seconds). */
  readonly closedSearch?: Partial<SearchOptions>;
}

/**
 * By scenario name. chat-turns: create, 4 turns, goodbye, close. messaging-sockets: the session, 12 handshakes (10 up
 * to the cap, the refused 11th, the reopen) and 5 frames (the join request, 4 messages); the access token is one per
 * VU, not per session, so it is left out (a few per cent of a step's work, most of it in the warm-up).
 */
export const SCENARIO_UNITS: Readonly<Record<string, ScenarioUnit>> = {
  'chat-turns': { unit: 'conversations', surface: 'chat', requestsPerIteration: 7, search: { stepSeconds: 10, warmupSeconds: 3 } },
  'messaging-sockets': { unit: 'sessions', surface: 'messaging', requestsPerIteration: 18, search: { startRate: 0.5, stepSeconds: 20, warmupSeconds: 8 } },
  // A call is polled for seconds until it ends: the warm-up outlasts one.
  'outbound-polling': { unit: 'calls', surface: 'calls', search: { startRate: 0.5, stepSeconds: 20, warmupSeconds: 8 } },
  // A walk reads the whole records window (dozens of pages), seconds here: a step must hold a dozen or more.
  'conversations-paging': { unit: 'walks', surface: 'records', search: { startRate: 0.25, stepSeconds: 75, warmupSeconds: 15, gracefulStopSeconds: 15 } },
  // A browser iteration is a Chromium start and several calls held for seconds: about half a minute. A known voice
  // capacity is calls at once (the gateway's agent seats), not pieces of work a second: 4 calls a browser (the nightly
  // workload, which capacity steps run) hold 4 seats for about the iteration.
  'voice-browser': {
    unit: 'browsers',
    surface: 'voice',
    search: { startRate: 0.02, stepSeconds: 150, warmupSeconds: 45, gracefulStopSeconds: 60, maxSteps: 6, maxSeconds: 1500 },
  },
  // A werift call in the engine (the nightly workload, which steps run: 4 turns), about 15 s. A known voice capacity is
  // calls at once (voice=N: the agent's seats), so N seats carry N / (call seconds) calls started a second; the closed
  // model (--model closed) holds calls and finds N itself.
  'voice-calls': {
    unit: 'calls',
    surface: 'voice',
    search: { startRate: 0.5, stepSeconds: 30, warmupSeconds: 10, gracefulStopSeconds: 15 },
    // A held call connects and hears the greeting in about 2 s, then takes a turn every 4 s: 30 s steps give each call
    // five or six turns in the steady part, and the last turn is answered within the graceful stop.
    closedSearch: { stepSeconds: 30, warmupSeconds: 6, gracefulStopSeconds: 10 },
  },
};

/** The unit of a scenario, `iterations` for one without a row. */
export const unitOf = (scenario: string): ScenarioUnit => SCENARIO_UNITS[scenario] ?? { unit: 'iterations', surface: '' };

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
