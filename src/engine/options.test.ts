import { describe, expect, it } from 'vitest';
import { minIterationMsOf, planScenarios, progressLine } from './options.js';

const plan = (s: Record<string, unknown>) => planScenarios({ scenarios: { chat: s } })[0] as ReturnType<typeof planScenarios>[number];

describe('progressLine', () => {
  const rate = plan({ executor: 'constant-arrival-rate', rate: 5, duration: '20s', preAllocatedVUs: 1 });

  it('says how far through its schedule a scenario is, as k6 does in a log', () => {
    expect(progressLine(rate, 8_000, 4)).toBe('chat [  40% ] 8s/20s');
  });

  it('counts from the scenario start time and stops at its end', () => {
    const late = plan({ executor: 'constant-vus', vus: 1, duration: '10s', startTime: '5s' });
    expect(progressLine(late, 2_000, 6)).toBe('chat   [   0% ] 0s/10s');
    expect(progressLine(late, 60_000, 4)).toBe('chat [ 100% ] 10s/10s');
  });
});

describe('minIterationMsOf', () => {
  it('reads minIterationDuration as k6 writes durations, 0 when unset', () => {
    expect(minIterationMsOf({ minIterationDuration: '1m30s' })).toBe(90_000);
    expect(minIterationMsOf({})).toBe(0);
  });

  it('refuses, before any VU runs, a minIterationDuration that is not a duration, naming the option', () => {
    expect(() => planScenarios({ minIterationDuration: 'ten seconds' })).toThrow(
      `minIterationDuration: 'ten seconds' is not a duration (e.g. "30s", "1m30s", "500ms")`,
    );
  });
});
