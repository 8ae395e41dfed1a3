import { describe, expect, it } from 'vitest';
import { parseLatency } from '../reference-target/latency-spec.js';
import { AGENT_OPS, learnedLatencySpec } from './latency.js';
import { learnModel, type TrafficRecord } from './learn.js';

const T0 = Date.parse('2026-11-02T10:00:00Z');
const record = (latencies: number[]): TrafficRecord => ({
  startedAt: T0,
  channel: 'CHAT',
  numTurns: latencies.length,
  durationS: 30,
  inProgress: false,
  handoff: false,
  turns: latencies.map((l, i) => ({ userAt: T0 + i * 10_000, agentAt: T0 + i * 10_000 + l * 1000, latencyS: l })),
});
const source = { baseUrl: 'x', clientEnv: 'live', apiVersion: 'v3', fromMs: T0, toMs: T0 + 3_600_000 };

describe('learnedLatencySpec', () => {
  it("gives every agent op the learned agent latency's p50 and p95 as a lognormal the target's grammar takes", () => {
    const model = learnModel([record([1, 1.2, 1.2, 1.4, 3])], [], source);
    const spec = learnedLatencySpec(model);
    const parsed = parseLatency(spec);
    if ('error' in parsed) throw new Error(parsed.error);
    expect([...parsed.spec.ops.keys()].sort()).toEqual([...AGENT_OPS].sort());
    expect(parsed.spec.ops.get('chat.respond')).toEqual({ kind: 'lognormal', p50: model.agent_latency_s.p50 * 1000, p95: model.agent_latency_s.p95 * 1000 });
  });

  it('refuses a model whose records had no turns', () => {
    const model = learnModel([{ ...record([1]), turns: [] }], [], source);
    expect(() => learnedLatencySpec(model)).toThrow('the traffic model has no agent latency');
  });
});
