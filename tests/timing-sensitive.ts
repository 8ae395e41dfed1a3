// The test files whose verdict depends on time: real load runs that check delivery, capacity searches within their
// tolerance, the gate under load, the engine's arrival schedules, timed capacities, the fuzz's bound on the slowest
// answer. vitest.config.ts runs them in a project of their own, one file at a time, after every other file has ended,
// so nothing of dialtone's own suite shares the cores with them; vitest.quick.config.ts leaves them out.
export const TIMING_SENSITIVE: readonly string[] = [
  'src/engine/run.test.ts', // arrival-rate schedules, dropped iterations, gracefulStop: the engine as its own process
  'src/reference-target/messaging/capacity.test.ts', // a messaging surface of known capacity, timed
  'tests/capacity.test.ts', // capacity searches within ±15 %
  'tests/capacity-realistic.test.ts', // the same against a slow agent
  'tests/capacity-closed.test.ts', // messaging searched as a closed model, sessions held
  'tests/under-load.test.ts', // the gate under load, with the load delivered
  'tests/load-exit-codes.test.ts', // a run whose load was not delivered
  'tests/slos.test.ts', // nightly-shaped runs against a slow agent, delivered
  'tests/tls-e2e.test.ts', // every scenario's smoke load over TLS: exit, figures, delivery, JUnit
  'tests/dialogues.test.ts', // chat-turns runs playing conversation scripts
  'tests/control.test.ts', // a load run beside its control run
  'tests/target-dies.test.ts', // a run that must end on time when its target dies
  'tests/conformance-gate.test.ts', // the gate, then a smoke load delivered
  'tests/package.test.ts', // the installed package's load and capacity runs
  'tests/fuzz.test.ts', // hostile traffic, with a bound on the slowest answer
  'tests/k6-engine.test.ts', // load runs on the user's k6, where one is installed
  'tests/traffic-roundtrip.test.ts', // a learned workload played and learned again: think times measured between turns
  'tests/capacity-learned.test.ts', // a capacity search playing a learned workload against a known capacity
];
