// conversations-paging: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run through k6's exit code (99).
  slos: {
    'http_req_duration{op:conversations.list}': ['p(95)<1000'],
    paging_repeats: ['count==0'],
    paging_skips: ['count==0'],
    paging_walk_complete: ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
  abortInCapacity: ['http_req_duration{op:conversations.list}'],
  /** Executor per load profile: cursor walks started per second, each reading the whole window. */
  workloads: {
    // Every VU the run may need is started up front: k6 drops an iteration that finds no idle VU while it starts one more.
    smoke: { executor: 'constant-arrival-rate', rate: 1, timeUnit: '1s', duration: '10s', preAllocatedVUs: 10, maxVUs: 20, gracefulStop: '10s' },
    nightly: { executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration: '5m', preAllocatedVUs: 10, maxVUs: 60, gracefulStop: '30s' },
    capacity: {
      executor: 'ramping-arrival-rate',
      startRate: 1,
      timeUnit: '1s',
      preAllocatedVUs: 10,
      maxVUs: 200,
      stages: [
        { target: 5, duration: '1m' },
        { target: 15, duration: '3m' },
        { target: 30, duration: '2m' },
      ],
      gracefulStop: '30s',
    },
  },
  metrics: {
    paging_records: 'counter',
    paging_pages: 'counter',
    paging_walk_duration: 'trend',
    paging_walk_records_per_s: 'trend',
    paging_repeats: 'counter',
    paging_skips: 'counter',
    paging_walk_complete: 'rate',
  },
};

export default defaults;
