import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/root.js';
import { UsageError } from '../errors.js';
import { type LoadedProfile, parseProfile } from '../profile/load.js';
import { EXAMPLE_PROFILE } from './example-profile.js';
import { planAgainst, planLoad, planWith, runLimitSeconds } from './plan.js';
import { shapeDuration } from './workload.js';

describe('the wall-time bound of a load run', () => {
  it('is the workload bound unless a --duration needs longer, and then the duration with room to start and stop', () => {
    expect(runLimitSeconds('nightly', undefined)).toBe(900);
    expect(runLimitSeconds('nightly', '5m')).toBe(900);
    // The soak: 30 minutes at nightly rates must not be cut at the nightly 15.
    expect(runLimitSeconds('nightly', '30m')).toBe(2100);
    expect(runLimitSeconds('smoke', '1h')).toBe(3900);
    expect(runLimitSeconds('smoke', '10s')).toBe(310);
  });
});

describe('the load plan', () => {
  const engine = { kind: 'builtin', version: 'test', command: process.execPath, args: [] } as const;
  const loadedAs = (environment: string, extra: Record<string, unknown> = {}): LoadedProfile => ({
    profile: parseProfile({ ...EXAMPLE_PROFILE, environment, ...extra }, 'staging-us.json'),
    path: 'staging-us.json',
    secrets: {},
  });
  const request = { command: 'load', root: ROOT, scenario: 'chat-turns', workload: 'smoke', engine } as const;

  it('refuses a live profile before it judges anything else of it, and takes one with --allow-live', () => {
    // A live profile whose SLOs k6 would not take: the refusal comes first, whatever else is wrong.
    const live = loadedAs('live', { slos: { 'chat-turns': { http_req_duration: ['p(95)<<500'] } } });
    expect(() => planLoad({ ...request, target: live })).toThrow(
      new UsageError("refusing a load run against the live environment of 'staging-us.json'; pass --allow-live to do it on purpose"),
    );
    expect(() => planLoad({ ...request, target: live, allowLive: true })).toThrow(/http_req_duration/);
    expect(planLoad({ ...request, target: loadedAs('live'), allowLive: true }).loaded?.profile.environment).toBe('live');
  });

  it('checks the scenario first, and is frozen', () => {
    expect(() => planLoad({ ...request, scenario: 'no-such', target: loadedAs('live') })).toThrow(/unknown scenario 'no-such'/);
    const plan = planLoad({ ...request, target: loadedAs('sandbox') });
    expect(Object.isFrozen(plan)).toBe(true);
    expect(plan.engine).toBe(engine);
  });

  it('binds the reference target a command starts, checked as a profile given, and no other target to a plan that has one', () => {
    const plan = planLoad(request);
    expect(plan.loaded).toBeUndefined();
    const reference = loadedAs('sandbox');
    expect(planAgainst(plan, reference).loaded).toBe(reference);
    expect(() => planAgainst(plan, loadedAs('live'))).toThrow(/refusing a load run/);
    const given = planLoad({ ...request, target: loadedAs('sandbox') });
    expect(planAgainst(given, given.loaded)).toBe(given);
    expect(() => planAgainst(given, reference)).toThrow(/cannot be bound/);
  });

  it('shapes the workload once its target is known: the time limit and the sample policy, again when overrides change', () => {
    const plan = planLoad({ ...request, target: loadedAs('sandbox'), graceSeconds: 5 });
    // The smoke workload's own length, with room to start and stop, and the grace asked.
    expect(plan.limitSeconds).toBe(runLimitSeconds('smoke', shapeDuration(plan.shaped.shape)) + 5);
    expect(plan.keepsSamples).toBe(true);
    // An hour-long run keeps no samples (past the timeline's 15 minutes), and is bounded by its hour.
    const hour = planWith(plan, { overrides: { duration: '1h' } });
    expect([shapeDuration(hour.shaped.shape), hour.limitSeconds, hour.keepsSamples]).toEqual(['1h', runLimitSeconds('smoke', '1h') + 5, false]);
    // A run at a rate of its own pushes the limit: no samples unless --dashboard asks for them.
    expect(planLoad({ ...request, target: loadedAs('sandbox'), overrides: { rate: 50 } }).keepsSamples).toBe(false);
  });
});
