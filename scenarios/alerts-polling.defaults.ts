// alerts-polling: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run through k6's exit code (99).
  slos: {
    'http_req_duration{op:alerts.rules.list}': ['p(95)<500'],
    'http_req_duration{op:alerts.list}': ['p(95)<500'],
    alerts_poll_answered: ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
  abortInCapacity: ['http_req_duration{op:alerts.rules.list}'],
  /** Executor per load profile: polls (both lists) started per second. */
  workloads: {
    smoke: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '10s', preAllocatedVUs: 2, maxVUs: 20, gracefulStop: '5s' },
    nightly: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '5m', preAllocatedVUs: 10, maxVUs: 100, gracefulStop: '10s' },
    capacity: {
      executor: 'ramping-arrival-rate',
      startRate: 10,
      timeUnit: '1s',
      preAllocatedVUs: 20,
      maxVUs: 500,
      stages: [
        { target: 100, duration: '1m' },
        { target: 300, duration: '3m' },
        { target: 600, duration: '2m' },
      ],
      gracefulStop: '10s',
    },
  },
  metrics: {
    alerts_poll_answered: 'rate',
  },
  // The rules list, then the active alerts, one after the other.
  iteration: {
    steps: [
      { key: 'http_req_duration{op:alerts.rules.list}', count: 1 },
      { key: 'http_req_duration{op:alerts.list}', count: 1 },
    ],
  },
};

export default defaults;
