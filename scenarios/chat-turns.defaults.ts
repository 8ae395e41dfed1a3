// chat-turns: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run through k6's exit code (99).
  slos: {
    'http_req_duration{op:chat.respond}': ['p(95)<500'],
    'http_req_duration{op:chat.create}': ['p(95)<500'],
    'http_req_duration{op:chat.close}': ['p(95)<500'],
    // Turns happened (and their count and rate reach the summary).
    'http_reqs{op:chat.respond}': ['count>0'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    chat_conversation_completed: ['rate>0.99'],
  },
  abortInCapacity: ['http_req_duration{op:chat.respond}'],
  /** Executor per load profile: smoke proves the path, nightly holds the SLO, capacity ramps to the knee. */
  workloads: {
    smoke: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '15s', preAllocatedVUs: 5, maxVUs: 30, gracefulStop: '5s' },
    nightly: { executor: 'constant-arrival-rate', rate: 40, timeUnit: '1s', duration: '5m', preAllocatedVUs: 40, maxVUs: 300, gracefulStop: '10s' },
    capacity: {
      executor: 'ramping-arrival-rate',
      startRate: 10,
      timeUnit: '1s',
      preAllocatedVUs: 50,
      maxVUs: 1000,
      stages: [
        { target: 100, duration: '1m' },
        { target: 400, duration: '3m' },
        { target: 800, duration: '2m' },
      ],
      gracefulStop: '10s',
    },
  },
  metrics: {
    chat_conversation_completed: 'rate',
  },
  // One create, TURNS_PER_CONVERSATION + 1 turns (the last one says goodbye) and one close, one after another.
  iteration: {
    steps: [
      { key: 'http_req_duration{op:chat.create}', count: 1 },
      { key: 'http_req_duration{op:chat.respond}', count: 5 },
      { key: 'http_req_duration{op:chat.close}', count: 1 },
    ],
  },
};

export default defaults;
