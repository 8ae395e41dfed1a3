// outbound-polling: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run through k6's exit code (99).
  slos: {
    'http_req_duration{op:outbound.trigger}': ['p(95)<500'],
    'http_req_duration{op:outbound.status}': ['p(95)<500'],
    outbound_time_to_terminal: ['p(95)<30000'],
    outbound_404_before_retention: ['count==0'],
    outbound_regressions: ['count==0'],
    outbound_terminal: ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
  abortInCapacity: ['http_req_duration{op:outbound.trigger}'],
  /** Executor per load profile: calls started per second. */
  workloads: {
    smoke: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '10s', preAllocatedVUs: 20, maxVUs: 60, gracefulStop: '8s' },
    nightly: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '5m', preAllocatedVUs: 80, maxVUs: 400, gracefulStop: '15s' },
    capacity: {
      executor: 'ramping-arrival-rate',
      startRate: 5,
      timeUnit: '1s',
      preAllocatedVUs: 50,
      maxVUs: 2000,
      stages: [
        { target: 50, duration: '1m' },
        { target: 150, duration: '3m' },
        { target: 300, duration: '2m' },
      ],
      gracefulStop: '15s',
    },
  },
  metrics: {
    outbound_time_to_terminal: 'trend',
    outbound_polls_per_call: 'trend',
    outbound_transitions: 'counter',
    outbound_regressions: 'counter',
    outbound_404_before_retention: 'counter',
    outbound_terminal: 'rate',
    outbound_calls: 'counter',
  },
  // The trigger, then polling until the call is terminal.
  iteration: {
    steps: [
      { key: 'http_req_duration{op:outbound.trigger}', count: 1 },
      { key: 'outbound_time_to_terminal', count: 1 },
    ],
  },
};

export default defaults;
