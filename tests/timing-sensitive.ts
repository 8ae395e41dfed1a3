// The test files whose verdict depends on time: real load runs that check delivery, capacity searches within their
// tolerance, the gate under load, the engine's arrival schedules, timed capacities, the fuzz's bound on the slowest
// answer. They never run beside the rest of dialtone's suite: vitest.config.ts gives them projects of their own that
// start after every other file has ended, and vitest.quick.config.ts leaves them out.
//
// Four lanes, each one file at a time, then the files that need the whole machine. `npm test` (scripts/test.mjs) runs
// the four lanes side by side, the waiting lanes followed by the files that run after them, then the last files alone;
// a plain `vitest run` runs them all one after the other. A file is waiting when it mostly waits on a slow agent or a
// target of known capacity: alone, each uses at most about a third of a 2-core machine (the share after each file
// below). Three lanes hold only such files, and the whole timing suite passes with them beside a driving file and one
// core kept busy on top, so a run without that busy core asks less of the machine. The driving lane holds every other
// timing file. A waiting file that starved a step beside a driving file and a waiting one runs after every waiting lane.

/** Files that drive the machine: load generated at rate, the gate, Chromium, hostile traffic. */
export const TIMING_DRIVING: readonly string[] = [
  'tests/under-load.test.ts', // the gate under load, with the load delivered
  'tests/load-exit-codes.test.ts', // a run whose load was not delivered
  'tests/tls-e2e.test.ts', // every API scenario's smoke load over TLS: exit, figures, delivery, JUnit
  'tests/dialogues.test.ts', // chat-turns runs playing conversation scripts
  'tests/target-dies.test.ts', // a run that must end on time when its target dies
  'tests/interrupt.test.ts', // load, a capacity search and the gate stopped by signals mid-run
  'tests/conformance-gate.test.ts', // the gate, then a smoke load delivered
  'tests/package-runs.test.ts', // the installed package's gate, load and capacity runs (installed in the unit phase)
  'tests/k6-engine.test.ts', // load runs on the user's k6, where one is installed
];

/**
 * Files that mostly wait, in three lanes of about the same length, so every waiting file has ended, and the file that
 * must wait for that has too, about when the driving lane ends. The known-capacity searches (capacity-closed, and
 * capacity-realistic within ±15 %) hold beside the lanes with one core kept busy on top, as they do alone.
 */
export const TIMING_WAITING_LANES: readonly (readonly string[])[] = [
  [
    'tests/slos.test.ts', // nightly-shaped runs against a slow agent, delivered (22 %)
    'tests/capacity-realistic.test.ts', // a capacity search against a slow agent, within ±15 % of its known capacity (15 %)
  ],
  [
    // arrival-rate schedules, dropped iterations, gracefulStop, signals: the engine's runs on time, in-process (21 %)
    'src/engine/run.test.ts',
    'tests/capacity.test.ts', // a capacity search limited by the load generator: one VU (10 %)
    'tests/fuzz.test.ts', // hostile traffic at a bounded rate, with a bound on the slowest answer (34 %)
    'tests/control.test.ts', // two smoke runs, the control first, each at 5 a second for 5 s (28 %)
  ],
  [
    'tests/traffic-roundtrip.test.ts', // a learned workload played and learned again: think times between turns (24 %)
    // messaging searched as a closed model: 1 and 2 sessions of 10 messages a second against a known 15 (12 %)
    'tests/capacity-closed.test.ts',
    'src/reference-target/messaging/capacity.test.ts', // a messaging surface of known capacity, timed (18 %)
  ],
];

/**
 * Waiting files that run once every waiting lane has ended, beside the driving lane alone: beside a driving file and a
 * waiting one, this one's search starved a step; here a driving file is all that is ever beside it, and it no longer
 * lengthens the driving lane.
 */
export const TIMING_AFTER_WAITS: readonly string[] = [
  'tests/capacity-learned.test.ts', // a capacity search playing a learned workload against a known capacity (33 %)
];

/**
 * Files that need the whole machine, run after the lanes with nothing beside them: beside a waiting file with a third
 * core's worth of work on top, Chromium's time to connected broke its SLO.
 */
export const TIMING_ALONE: readonly string[] = [
  'tests/tls-voice-browser.test.ts', // the voice-browser smoke load over TLS: Chromium at 8 calls a browser, the limit
  // The voice-calls smoke load: its werift calls (DTLS, SRTP, Opus) take a core in bursts, and beside the lanes they
  // starved the realistic search (a waiting file) of a step below its known capacity.
  'tests/voice-calls.test.ts',
];

/** The vitest project of each list, in the order a plain `vitest run` runs them (vitest.config.ts). */
export const TIMING_PROJECTS: Readonly<Record<string, readonly string[]>> = {
  timing: TIMING_DRIVING,
  'timing-wait': TIMING_WAITING_LANES[0] ?? [],
  'timing-wait-2': TIMING_WAITING_LANES[1] ?? [],
  'timing-wait-3': TIMING_WAITING_LANES[2] ?? [],
  'timing-after-waits': TIMING_AFTER_WAITS,
  'timing-alone': TIMING_ALONE,
};

/** Every timing-sensitive file. */
export const TIMING_SENSITIVE: readonly string[] = Object.values(TIMING_PROJECTS).flat();
