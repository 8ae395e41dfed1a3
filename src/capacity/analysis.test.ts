import { describe, expect, it } from 'vitest';
import { analyse } from './analysis.js';
import { DEFAULT_SEARCH } from './search.js';
import type { StepResult } from './step.js';
import { fitUsl, uslThroughput } from './usl.js';
import { exportsOf, steadyKey } from './wrapper.js';

/** A step as the runner reports it; tests set only what they judge. */
function step(offered: number, o: Partial<StepResult> = {}): StepResult {
  return {
    index: 0,
    stage: 'coarse',
    offered_rate: offered,
    duration_s: 20,
    warmup_s: 5,
    throughput: offered,
    requests_per_s: offered * 7,
    requests_per_iteration: 7,
    error_rate: 0,
    dropped_iterations: 0,
    dropped_share: 0,
    vus_in_use: 2,
    vus_cap: 100,
    generator_cpu_cores: 0.1,
    machine_busy: 0.3,
    mean_iteration_s: 0.4,
    concurrency: offered * 0.4,
    latency: { 'http_req_duration{op:chat.respond}': { p50: 50, p95: 60, p99: 70 } },
    thresholds: [{ metric: 'http_req_duration{op:chat.respond}', expression: 'p(95)<500', passed: true, value: 60 }],
    slo_held: true,
    k6_exit_code: 0,
    wall_s: 22,
    ...o,
  };
}
const broken = { slo_held: false, thresholds: [{ metric: 'http_req_duration{op:chat.respond}', expression: 'p(95)<500', passed: false, value: 900 }] };

describe('capacity analysis', () => {
  it('recovers the USL parameters a curve was made with, and its peak', () => {
    const made = { lambda: 10, sigma: 0.05, kappa: 0.002 };
    const fit = fitUsl([1, 2, 4, 8, 16, 32].map((n) => ({ n, x: uslThroughput(made, n) })));
    expect(fit?.sigma).toBeCloseTo(0.05, 6);
    expect(fit?.kappa).toBeCloseTo(0.002, 6);
    expect(fit?.r2).toBeCloseTo(1, 6);
    expect(fit?.peak_concurrency).toBeCloseTo(Math.sqrt(0.95 / 0.002), 4);
  });

  it('gives no fit for fewer than three distinct concurrencies', () => {
    expect(
      fitUsl([
        { n: 1, x: 1 },
        { n: 2, x: 2 },
      ]),
    ).toBeUndefined();
  });

  it('reports the highest rate that held below the first SLO breach, with the target as the limit', () => {
    const a = analyse([step(1), step(2), step(4, broken), step(3)], DEFAULT_SEARCH, 'chat-turns');
    expect(a.limited_by).toBe('target');
    expect(a.max_sustainable_rate).toBe(3);
    expect(a.first_broken_rate).toBe(4);
    expect(a.limit_reason).toBe('at 4.00/s the target broke http_req_duration{op:chat.respond} p(95)<500 (900.00)');
  });

  it('counts a step whose completions fell behind the offered rate as broken, though its SLOs held', () => {
    const a = analyse([step(1), step(2), step(3, { throughput: 2.2 })], DEFAULT_SEARCH, 'chat-turns');
    expect(a.max_sustainable_rate).toBe(2);
    expect(a.limit_reason).toContain('completed only 2.20/s of the offered 3.00/s');
  });

  it('names the load generator and gives no capacity when the engine dropped iterations while the SLOs held', () => {
    const a = analyse([step(1), step(2, { dropped_iterations: 40, dropped_share: 0.13 }), step(4, broken)], DEFAULT_SEARCH, 'chat-turns');
    expect(a.limited_by).toBe('load-generator');
    expect(a.max_sustainable_rate).toBeNull();
    expect(a.limit_reason).toBe('at 2.00/s the engine dropped 13.0% of the offered iterations before the target broke an SLO; no target capacity is reported');
  });

  it('names the load generator when it shares a saturated machine with the target, even on a step where an SLO broke', () => {
    // voice-browser on 2 cores: k6 and Chromium at 0.88 cores, the machine 98 % busy with the loopback target's work.
    const a = analyse([step(1), step(2, { ...broken, generator_cpu_cores: 0.88, machine_busy: 0.98 })], DEFAULT_SEARCH, 'chat-turns');
    expect(a.limited_by).toBe('load-generator');
    expect(a.max_sustainable_rate).toBeNull();
    expect(a.limit_reason).toBe(
      'at 2.00/s the engine used 0.88 cores of a machine 98% busy (limit 95%), which it shares with what it measures before the target broke an SLO; no ' +
        'target capacity is reported',
    );
    // A busy machine with a light generator is the target's doing: the generator could not have freed much.
    expect(analyse([step(1), step(2, { ...broken, generator_cpu_cores: 0.2, machine_busy: 0.98 })], DEFAULT_SEARCH, 'chat-turns').limited_by).toBe('target');
  });

  it('names the load generator when its CPU ran out, even on a step where an SLO broke', () => {
    const a = analyse([step(1), step(2, { ...broken, generator_cpu_cores: 1.4 })], DEFAULT_SEARCH, 'chat-turns');
    expect(a.limited_by).toBe('load-generator');
    expect(a.max_sustainable_rate).toBeNull();
  });

  it('blames the target when VUs ran out only because its SLO had already broken', () => {
    const a = analyse([step(1), step(2, { ...broken, vus_in_use: 100, dropped_iterations: 30, dropped_share: 0.1 })], DEFAULT_SEARCH, 'chat-turns');
    expect(a.limited_by).toBe('target');
    expect(a.max_sustainable_rate).toBe(1);
  });

  it('finds the knee where latency grows faster than the offered rate', () => {
    const slow = { latency: { 'http_req_duration{op:chat.respond}': { p50: 200, p95: 300, p99: 400 } } };
    const a = analyse([step(1), step(2), step(3, slow), step(4, broken)], DEFAULT_SEARCH, 'chat-turns');
    expect(a.knee?.rate).toBe(3);
    expect(a.knee?.reason).toBe('p95 grew 5.0× while the offered rate grew 3.0×');
  });

  it('names the load generator when a learned step started fewer conversations than it asked while the SLOs held', () => {
    // Conversations start on schedule: fewer started than asked is the engine's, even with every completion kept up.
    const learned = (n: number, started: number) => step(n, { conversations: { started_per_s: started, completed_per_s: n } });
    const delivered = analyse([learned(1, 1), learned(2, 2), learned(4, 4), step(8, broken)], DEFAULT_SEARCH, 'chat-turns');
    expect(delivered).toMatchObject({ limited_by: 'target', max_sustainable_rate: 4 });
    const a = analyse([learned(1, 1), learned(2, 2), learned(4, 3.2), step(8, broken)], DEFAULT_SEARCH, 'chat-turns');
    expect(a.limited_by).toBe('load-generator');
    expect(a.max_sustainable_rate).toBeNull();
    expect(a.limit_reason).toBe(
      'at 4.00/s the engine started 48 of the 60 conversations asked in the steady part before the target broke an SLO; no target capacity is reported',
    );
  });

  it('speaks of sessions held and messages answered in the closed model, never of arrival rates', () => {
    // 10 sockets at 1 message/s a session: 3 held answered 24.3 of 30 messages/s, a queue growing.
    const held = (n: number, answered: number) =>
      step(n, { throughput: answered / 10, concurrency: n, messages: { offered_per_s: n * 10, answered_per_s: answered } });
    const a = analyse([held(1, 9.8), held(2, 19.8), held(4, 23.5), held(3, 24.3)], { ...DEFAULT_SEARCH, closed: { messageRate: 1 } }, 'messaging-sockets');
    expect(a.max_sustainable_rate).toBe(2);
    expect(a.limit_reason).toBe('with 3 held the target broke no SLO but answered only 24.3 of the 30.0 messages/s sent (a queue was growing)');
    expect(a.knee?.reason).toBe('24.3 of the 30.0 messages/s sent were answered, below 90%');
    expect(a.interval).toMatchObject({ low: 2, high: 3 });
  });

  describe('a voice-calls closed model', () => {
    const closed = { ...DEFAULT_SEARCH, closed: { messageRate: 0.25 } };
    /** `n` calls held, each taking a turn every 4 s; `answered` turns a second answered, turn latency p95 `p95` ms. */
    const calls = (n: number, answered: number, p95 = 900) =>
      step(n, {
        throughput: answered / 0.25,
        concurrency: n,
        latency: { voice_call_turn_latency: { p50: p95 * 0.8, p95, p99: p95 * 1.2 } },
        thresholds: [{ metric: 'voice_call_turn_latency', expression: 'p(95)<2000', passed: p95 < 2000, value: p95 }],
        slo_held: p95 < 2000,
        messages: { offered_per_s: n * 0.25, answered_per_s: answered },
      });

    it('speaks of calls held and turns taken when the answered turns fell behind, never of messages or sessions', () => {
      const a = analyse([calls(4, 1), calls(8, 2), calls(16, 3), calls(12, 2.6)], closed, 'voice-calls');
      expect(a.max_sustainable_rate).toBe(8);
      expect(a.limit_reason).toBe('with 12 held the target broke no SLO but answered only 2.6 of the 3.0 turns/s taken (a queue was growing)');
      expect(a.knee?.reason).toBe('2.6 of the 3.0 turns/s taken were answered, below 90%');
      expect(JSON.stringify(a)).not.toMatch(/messages|sessions/);
    });

    it('names the calls held when turn latency grew faster than they did', () => {
      const a = analyse([calls(2, 0.5, 400), calls(4, 1, 500), calls(8, 2, 1800), calls(16, 4, 2600)], closed, 'voice-calls');
      expect(a.knee).toEqual({ rate: 8, reason: 'p95 grew 4.5× while the calls held grew 4.0×' });
      expect(a.limit_reason).toBe('with 16 held the target broke voice_call_turn_latency p(95)<2000 (2600.00)');
      expect(JSON.stringify(a)).not.toMatch(/messages|sessions/);
    });
  });
});

describe('the step wrapper', () => {
  it('adds the steady tag to threshold keys with and without tags', () => {
    expect(steadyKey('checks')).toBe('checks{dialtone_phase:steady}');
    expect(steadyKey('http_req_duration{op:chat.create}')).toBe('http_req_duration{op:chat.create,dialtone_phase:steady}');
  });

  it('reads the names an esbuild bundle exports', () => {
    expect(exportsOf('var a=1;\nexport {\n  walk as default,\n  options,\n  setup\n};\n//# sourceMappingURL=data:xyz\n')).toEqual([
      'default',
      'options',
      'setup',
    ]);
  });
});
