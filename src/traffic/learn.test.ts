import { describe, expect, it } from 'vitest';
import { arrivals, channelMix, learnModel, littlesLaw, quantiles, simulatedWindowPeak, type TrafficRecord, thinkTimes, trafficRecordOf } from './learn.js';
import { TrafficModel } from './model.js';

const T0 = Date.parse('2026-11-02T00:00:00.000Z');
const H = 3_600_000;

/** A finished conversation started at `at` with turns of the given latencies (s), each answered, then a think time (s). */
function conv(at: number, o: { channel?: string; latencies?: number[]; think?: number; handoff?: boolean; inProgress?: boolean } = {}): TrafficRecord {
  const lat = o.latencies ?? [1, 1];
  let t = at + 1000;
  const turns = lat.map((l) => {
    const userAt = t;
    const agentAt = userAt + l * 1000;
    t = agentAt + (o.think ?? 5) * 1000;
    return { userAt, agentAt, latencyS: l };
  });
  return {
    startedAt: at,
    channel: o.channel ?? 'CHAT',
    numTurns: turns.length,
    durationS: (t - at) / 1000,
    inProgress: o.inProgress ?? false,
    handoff: o.handoff ?? false,
    turns,
  };
}

describe('quantiles', () => {
  it('keeps the median, the mean and how many observations they rest on', () => {
    const q = quantiles([5, 1, 4, 2, 3]);
    expect(q).toMatchObject({ n: 5, mean: 3, p50: 3, p25: 2, p75: 4 });
  });

  it('gives zeros resting on no observation when there is none', () => {
    expect(quantiles([])).toMatchObject({ n: 0, mean: 0, p50: 0 });
  });
});

describe('arrivals', () => {
  it('counts conversations per hour of day as a mean over the days, and finds the busiest clock hour, overall and each day', () => {
    // Two days: 10:00 has 3 then 5 conversations, 14:00 has 1 each day.
    const starts = [
      ...[0, 1, 2].map((i) => T0 + 10 * H + i * 60_000),
      ...[0, 1, 2, 3, 4].map((i) => T0 + 24 * H + 10 * H + i * 60_000),
      T0 + 14 * H,
      T0 + 24 * H + 14 * H,
    ];
    const a = arrivals(
      starts.map((s) => conv(s)),
      T0,
      T0 + 48 * H,
    );
    expect(a.days).toBe(2);
    expect(a.per_hour_of_day[10]).toBe(4);
    expect(a.per_hour_of_day[14]).toBe(1);
    expect(a.per_hour_of_day[0]).toBe(0);
    expect(a.busiest_hour).toEqual({ start: '2026-11-03T10:00:00.000Z', conversations: 5, per_second: Math.round((5 / 3600) * 1e6) / 1e6 });
    expect(a.daily_peaks).toEqual([
      { date: '2026-11-02', per_second: Math.round((3 / 3600) * 1e6) / 1e6 },
      { date: '2026-11-03', per_second: Math.round((5 / 3600) * 1e6) / 1e6 },
    ]);
  });
});

describe('think time and channel mix', () => {
  it('measures think time from each agent response to the next user input of the same conversation', () => {
    expect(thinkTimes([conv(T0, { latencies: [1, 2, 3], think: 7 })])).toEqual([7, 7]);
  });

  it('gives each channel its share of the conversations', () => {
    const rs = [conv(T0, { channel: 'CHAT' }), conv(T0, { channel: 'VOICE-SIP' }), conv(T0, { channel: 'VOICE-SIP' }), conv(T0, { channel: 'VOICE-SIP' })];
    expect(channelMix(rs)).toEqual({ 'VOICE-SIP': 0.75, CHAT: 0.25 });
  });
});

describe("Little's law", () => {
  it('plays arrivals and durations out into a mean 5-minute peak: none without arrivals, higher for longer conversations', () => {
    expect(simulatedWindowPeak(0, quantiles([60]))).toBe(0);
    // Conversations that last far longer than the hour: every window's peak is what the hour started with, plus its arrivals.
    const long = quantiles([36_000]);
    expect(simulatedWindowPeak(0.01, long)).toBeGreaterThan(0.01 * 36_000);
    // A longer conversation at the same arrival rate raises the peak, as it does on the platform.
    expect(simulatedWindowPeak(0.1, quantiles([120]))).toBeGreaterThan(simulatedWindowPeak(0.1, quantiles([30])));
  });

  it('agrees when the reported peaks are what the arrivals and durations give, and says so when they are more than 20 % away', () => {
    const d = quantiles([60]);
    const predicted = simulatedWindowPeak(0.1, d);
    const windows = (peak: number) => Array.from({ length: 12 }, (_, i) => ({ at: T0 + i * 300_000, peak }));
    expect(littlesLaw(0.1, d, windows(predicted), T0)).toMatchObject({ mean_concurrency: 6, predicted_peak: predicted, disagreement: 0, agrees: true });
    const off = littlesLaw(0.1, d, windows(predicted * 2), T0);
    expect(off.agrees).toBe(false);
    expect(off.disagreement).toBe(0.5);
    expect(littlesLaw(0.1, d, [], T0)).toMatchObject({ reported_peak: null, agrees: null });
  });
});

describe('learnModel', () => {
  it('learns turns, think time, latency, duration, channels and handoff and end rates from hand-built records', () => {
    const records = [
      conv(T0 + 10 * H, { latencies: [1, 2], think: 4 }),
      conv(T0 + 10 * H + 60_000, { latencies: [1, 2, 3], think: 6, handoff: true, channel: 'VOICE-SIP' }),
      conv(T0 + 11 * H, { latencies: [2], think: 5 }),
      conv(T0 + 12 * H, { latencies: [1], inProgress: true }),
    ];
    const model = learnModel(records, [{ at: T0 + 10 * H, peak: 2 }], {
      baseUrl: 'http://127.0.0.1:1',
      clientEnv: 'live',
      apiVersion: 'v3',
      fromMs: T0,
      toMs: T0 + 24 * H,
    });
    expect(TrafficModel.parse(model)).toEqual(model);
    expect(model.source).toMatchObject({ conversations: 4, without_turns: 0, since: '2026-11-02T00:00:00.000Z' });
    expect(model.turns).toMatchObject({ n: 3, p50: 2 });
    expect(model.think_time_s).toMatchObject({ n: 3, p50: 6 });
    expect(model.agent_latency_s).toMatchObject({ n: 7, p50: 2 });
    expect(model.duration_s.n).toBe(3);
    expect(model.handoff_rate).toBe(0.333);
    expect(model.end_rate).toBe(0.667);
    expect(model.channels).toEqual({ CHAT: 0.75, 'VOICE-SIP': 0.25 });
    expect(model.arrivals.busiest_hour.conversations).toBe(2);
    expect(model.concurrency).toEqual({ peak: 2, peak_at: '2026-11-02T10:00:00.000Z', windows: 1 });
  });

  it('counts a record without turns (transcripts off) through num_turns', () => {
    const bare: TrafficRecord = { ...conv(T0), numTurns: 6, turns: [] };
    const model = learnModel([bare], [], { baseUrl: 'x', clientEnv: 'live', apiVersion: 'v3', fromMs: T0, toMs: T0 + H });
    expect(model.turns.p50).toBe(6);
    expect(model.source.without_turns).toBe(1);
    expect(model.agent_latency_s.n).toBe(0);
  });
});

describe('trafficRecordOf', () => {
  it('reads a v3 record, latency in milliseconds', () => {
    const r = trafficRecordOf({
      started_at: '2026-11-02T10:00:00.000Z',
      channel: 'WEBCHAT',
      num_turns: 1,
      total_duration: 12.5,
      in_progress: false,
      handoff: true,
      turns: [{ user_input_datetime: '2026-11-02T10:00:01.000Z', agent_response_datetime: '2026-11-02T10:00:02.500Z', latency: 1500 }],
    });
    expect(r).toEqual({
      startedAt: Date.parse('2026-11-02T10:00:00.000Z'),
      channel: 'WEBCHAT',
      numTurns: 1,
      durationS: 12.5,
      inProgress: false,
      handoff: true,
      turns: [{ userAt: Date.parse('2026-11-02T10:00:01.000Z'), agentAt: Date.parse('2026-11-02T10:00:02.500Z'), latencyS: 1.5 }],
    });
  });

  it('reads a v1 record with nulls and non-ISO timestamps, latency from the timestamps', () => {
    const r = trafficRecordOf({
      started_at: '2026/11/02 10:00:00 UTC',
      channel: null,
      num_turns: null,
      total_duration: null,
      in_progress: null,
      handoff: null,
      turns: [{ user_input_datetime: '2026/11/02 10:00:01 UTC', agent_response_datetime: '2026/11/02 10:00:03 UTC' }],
    });
    expect(r).toMatchObject({ channel: '(none)', numTurns: 1, durationS: 0, handoff: false, turns: [{ latencyS: 2 }] });
  });

  it("reads a v1 time without a zone as UTC, whatever the machine's zone", () => {
    expect(trafficRecordOf({ started_at: '2026-11-02 10:00:00', turns: null })?.startedAt).toBe(Date.parse('2026-11-02T10:00:00Z'));
  });

  it('skips a record without a readable started_at (a whitelisted v1 record may lack it)', () => {
    expect(trafficRecordOf({ id: 'x' })).toBeUndefined();
  });
});
