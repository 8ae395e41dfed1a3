import { describe, expect, it } from 'vitest';
import { planScenarios } from '../options.js';
import { askedAt } from './live-feed.js';

describe("what the live feed says each scenario's schedule asks for", () => {
  it('reads an arrival rate per second from its timeUnit, a ramp where it stands, and VUs for the VU executors', () => {
    const plans = planScenarios({
      scenarios: {
        steady: { executor: 'constant-arrival-rate', rate: 120, timeUnit: '1m', duration: '30s', preAllocatedVUs: 1 },
        ramp: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', stages: [{ duration: '10s', target: 10 }], preAllocatedVUs: 1 },
        held: { executor: 'constant-vus', vus: 3, duration: '30s' },
      },
    });
    expect(askedAt(plans, 5_000)).toEqual([
      { scenario: 'steady', executor: 'constant-arrival-rate', rate_per_s: 2 },
      { scenario: 'ramp', executor: 'ramping-arrival-rate', rate_per_s: 5 },
      { scenario: 'held', executor: 'constant-vus', vus: 3 },
    ]);
    expect(askedAt(plans, 60_000)[1]).toMatchObject({ rate_per_s: 10 });
  });
});
