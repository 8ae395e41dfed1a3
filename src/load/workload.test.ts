import { describe, expect, it } from 'vitest';
import { SCENARIO_DEFAULTS } from './defaults.js';
import { thresholdsFor } from './slos.js';
import { checkWorkloads, effectiveShape, iterationSeconds, MAX_GRACEFUL_STOP_S, POOL_HEADROOM } from './workload.js';

const SLOW = { 'chat-turns': Object.fromEntries(['respond', 'create', 'close'].map((op) => [`http_req_duration{op:chat.${op}}`, ['p(95)<3000']])) };

/** The effective shape of chat-turns for a profile, as a run would get it. */
function chat(workload: 'smoke' | 'nightly' | 'capacity', profile: Parameters<typeof effectiveShape>[0]['profile'] = {}, overrides = {}) {
  return effectiveShape({ scenario: 'chat-turns', workload, profile, thresholds: thresholdsFor('chat-turns', workload, profile), overrides });
}

describe("Little's law sizes an arrival-rate pool", () => {
  it('takes the iteration time as every step at its SLO bound: a create, five turns and a close', () => {
    expect(iterationSeconds('chat-turns', thresholdsFor('chat-turns', 'smoke', {}))).toBe(3.5);
    expect(iterationSeconds('chat-turns', thresholdsFor('chat-turns', 'smoke', { slos: SLOW }))).toBe(21);
  });

  it('gives a 1.2 s agent with 3 s SLOs at 5 conversations/s the VUs it needs without a flag', () => {
    const { shape, sources } = chat('smoke', { slos: SLOW });
    // A 1.2 s agent: 7 requests, 8.4 s an iteration, so 5/s keeps 42 VUs busy.
    expect((shape as { maxVUs: number }).maxVUs).toBeGreaterThanOrEqual(42);
    expect(shape).toMatchObject({ rate: 5, maxVUs: 5 * 21 * POOL_HEADROOM, preAllocatedVUs: Math.ceil((5 * 21) / POOL_HEADROOM) });
    expect(sources).toMatchObject({ rate: 'default', maxVUs: 'sized', preAllocatedVUs: 'sized' });
  });

  it('never shrinks a pool below the workload default', () => {
    const { shape, sources } = chat('nightly');
    expect(shape).toMatchObject({ maxVUs: 300 });
    expect(sources.maxVUs).toBe('default');
  });

  it('sizes a ramp for its highest stage', () => {
    expect(chat('capacity').shape).toMatchObject({ executor: 'ramping-arrival-rate', maxVUs: 800 * 3.5 * POOL_HEADROOM });
  });

  it('lets an iteration that started before the end finish within its SLO bound, up to a limit', () => {
    const { shape, sources } = chat('smoke', { slos: SLOW });
    expect(shape.gracefulStop).toBe('21s');
    expect(sources.gracefulStop).toBe('sized');
    expect(chat('smoke').shape.gracefulStop).toBe('5s');
    expect(MAX_GRACEFUL_STOP_S).toBeGreaterThan(21);
  });

  it('leaves a scenario without an iteration model its own pool', () => {
    const { shape, sources } = effectiveShape({ scenario: 'conversations-paging', workload: 'smoke', profile: {}, thresholds: {} });
    expect(shape).toMatchObject({ preAllocatedVUs: 10, maxVUs: 20 });
    expect(sources).toMatchObject({ preAllocatedVUs: 'default', maxVUs: 'default' });
  });
});

describe('workload settings', () => {
  it('come from the profile over the defaults, and from the flags over the profile', () => {
    const profile = { workloads: { 'chat-turns': { nightly: { rate: 12, duration: '2m', max_vus: 90 } } } };
    expect(chat('nightly', profile)).toMatchObject({
      shape: { rate: 12, duration: '2m', maxVUs: 90 },
      sources: { rate: 'profile', duration: 'profile', maxVUs: 'profile' },
    });
    expect(chat('nightly', profile, { rate: 20, maxVUs: 50 })).toMatchObject({
      shape: { rate: 20, duration: '2m', maxVUs: 50 },
      sources: { rate: 'flag', duration: 'profile', maxVUs: 'flag' },
    });
  });

  it('set browsers at once for the browser scenario, at most 16', () => {
    const profile = { workloads: { 'voice-browser': { nightly: { rate: 40 } } } };
    const { shape, sources } = effectiveShape({ scenario: 'voice-browser', workload: 'nightly', profile, thresholds: {} });
    expect(shape).toMatchObject({ executor: 'constant-vus', vus: 16 });
    expect(sources.vus).toBe('profile');
  });

  it('set calls at once for voice-calls past the browser cap: a VU there is a werift call, not a Chromium', () => {
    const { shape, sources } = effectiveShape({ scenario: 'voice-calls', workload: 'nightly', profile: {}, thresholds: {}, overrides: { rate: 60 } });
    expect(shape).toMatchObject({ executor: 'constant-vus', vus: 60 });
    expect(sources.vus).toBe('flag');
  });

  it.each([
    [{ 'chat-turn': { smoke: {} } }, `p.json: workloads.chat-turn: expected a scenario (${Object.keys(SCENARIO_DEFAULTS).join(', ')})`],
    [{ 'chat-turns': { weekly: {} } }, "p.json: workloads.chat-turns.weekly: expected a workload (smoke, nightly, capacity), found 'weekly'"],
    [
      { 'chat-turns': { capacity: { duration: '1m' } } },
      "p.json: workloads.chat-turns.capacity.duration: expected none (the capacity workload is a ramp, ramping-arrival-rate, and keeps its stages), found '1m'",
    ],
    [
      { 'voice-browser': { smoke: { max_vus: 3 } } },
      'p.json: workloads.voice-browser.smoke.max_vus: expected none (the smoke workload runs a number of VUs, constant-vus, not a pool), found 3 (a number)',
    ],
  ])('refuse %j with one line', (workloads, text) => {
    expect(() => checkWorkloads({ workloads: workloads as never }, 'p.json')).toThrow(text);
  });

  it('exist for every scenario and workload name the profile may use', () => {
    for (const d of Object.values(SCENARIO_DEFAULTS)) expect(Object.keys(d.workloads).sort()).toEqual(['capacity', 'nightly', 'smoke']);
  });
});
