// Each scenario's unit of work and the reference-target surface it loads: a known capacity of N
// pieces of work per second on that surface (src/reference-target/capacity.ts: an HTTP request, a WebSocket
// handshake or a client frame) is N / (pieces per iteration) iterations per second.

import type { LearnedWorkload } from '../load/config.js';
import { DEFAULT_SEARCH, type SearchOptions } from './search.js';
import type { StepResult } from './step.js';

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
  /** What the closed model holds and the work each held one does, for a scenario that has a closed model. */
  readonly closedWork?: ClosedWork;
}

/**
 * The closed model's words: a step's `messages` count the held ones' work (offered and answered a second) whatever that
 * work is, so the reasons and the report name it from here.
 */
export interface ClosedWork {
  /** What one VU holds, plural, as the scenario's closedModel says (`3 sessions held`). */
  readonly held: string;
  /** The work a held one does, plural, as its rate reads (`messages/s`). */
  readonly work: string;
  /** What the generator does with that work: messages are `sent`, turns `taken`. */
  readonly done: string;
  /** One held unit's pace, from the model's sockets each and rate a socket (its work a second is their product). */
  readonly pace: (sockets: number, ratePerSocket: number) => string;
  /** What the held ones are doing at a step's offered rate, as its progress line reads (`sending 5.0/s`). */
  readonly doing: string;
  /** What --message-rate counts for this scenario (`user messages a second per socket`). */
  readonly rate: string;
}

/**
 * By scenario name. chat-turns: create, 4 turns, goodbye, close. messaging-sockets: the session, 12 handshakes (10 up
 * to the cap, the refused 11th, the reopen) and 5 frames (the join request, 4 messages); the access token is one per
 * VU, not per session, so it is left out (a few per cent of a step's work, most of it in the warm-up).
 */
export const SCENARIO_UNITS: Readonly<Record<string, ScenarioUnit>> = {
  'chat-turns': { unit: 'conversations', surface: 'chat', requestsPerIteration: 7, search: { stepSeconds: 10, warmupSeconds: 3 } },
  'messaging-sockets': {
    unit: 'sessions',
    surface: 'messaging',
    requestsPerIteration: 18,
    search: { startRate: 0.5, stepSeconds: 20, warmupSeconds: 8 },
    closedWork: {
      held: 'sessions',
      work: 'messages',
      done: 'sent',
      pace: (k, rate) => `${k} sockets to one, every socket sending ${rate.toFixed(2)} messages/s (${(k * rate).toFixed(1)} messages/s a session)`,
      doing: 'sending',
      rate: 'user messages a second per socket',
    },
  },
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
    // A held call's messages are its turns: taken at the message rate, answered as voice_call_turns counts them.
    closedWork: {
      held: 'calls',
      work: 'turns',
      done: 'taken',
      pace: (k, rate) => `every call taking ${(k * rate).toFixed(2)} turns/s`,
      doing: 'taking turns at',
      rate: 'turns a second per call',
    },
  },
};

/** The unit of a scenario, `iterations` for one without a row. */
export const unitOf = (scenario: string): ScenarioUnit => SCENARIO_UNITS[scenario] ?? { unit: 'iterations', surface: '' };

/**
 * The closed model's words for a scenario; one without a row (it has no closed model) gets its own unit and plain
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
