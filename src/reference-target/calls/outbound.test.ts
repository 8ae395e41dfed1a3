import { describe, expect, it } from 'vitest';
import { isForwardTransition, OUTBOUND_RETENTION_MS } from '../../contract/outbound/shapes.js';
import { callState, defaultOutcome, forgetRemoved, type OutboundCall, REFERENCE_TIMING } from './outbound.js';

const manual = (advancedMs: number, outcome: 'success' | 'failure' = 'success') => ({ manual: true, createdAt: 1_000, advancedMs, outcome });
const END = REFERENCE_TIMING.queuedMs + REFERENCE_TIMING.callingMs;

describe('the outbound call state machine', () => {
  it('goes queued, calling, then its outcome', () => {
    expect(callState(manual(0), 50_000)?.status).toBe('queued');
    expect(callState(manual(REFERENCE_TIMING.queuedMs), 50_000)?.status).toBe('calling');
    expect(callState(manual(END), 50_000)?.status).toBe('success');
    expect(callState(manual(END, 'failure'), 50_000)?.status).toBe('failure');
  });

  it('only ever moves forward as time passes', () => {
    const seen = [0, 500, 1_000, 2_999, 3_000, 60_000].map((ms) => callState(manual(ms), 0)?.status);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      if (a && b && a !== b) expect(isForwardTransition(a, b)).toBe(true);
    }
  });

  it('keeps the outcome for the retention after the end, then removes the status', () => {
    expect(callState(manual(END + OUTBOUND_RETENTION_MS - 1), 0)?.status).toBe('success');
    expect(callState(manual(END + OUTBOUND_RETENTION_MS), 0)).toBeUndefined();
  });

  it('moves a manual call only when it is advanced, and an automatic one with the clock', () => {
    expect(callState(manual(0), 10_000_000)?.status).toBe('queued');
    const auto = { manual: false, createdAt: 1_000, advancedMs: 0, outcome: 'success' as const };
    expect(callState(auto, 1_000 + END)?.status).toBe('success');
  });

  it('dates each status from when the call entered it', () => {
    const auto = { manual: false, createdAt: 1_000, advancedMs: 0, outcome: 'success' as const };
    expect(callState(auto, 1_000 + END + 5_000)?.since).toBe(1_000 + END);
  });

  it('fails calls to numbers ending in 8 or 9 and connects the others', () => {
    expect(defaultOutcome('+447700900128')).toBe('failure');
    expect(defaultOutcome('+447700900129')).toBe('failure');
    expect(defaultOutcome('+447700900120')).toBe('success');
  });

  it('forgets only the calls whose status has been removed, whatever order they were placed in', () => {
    const call = (sid: string, advancedMs: number): [string, OutboundCall] => [
      sid,
      {
        sid,
        toNumber: '+447700900123',
        fromNumber: undefined,
        metadata: undefined,
        encryption: undefined,
        createdAt: 1_000,
        manual: true,
        advancedMs,
        outcome: 'success',
        terminalReads: 0,
      },
    ];
    const calls = new Map([call('OUT-kept', END + OUTBOUND_RETENTION_MS - 1), call('OUT-removed', END + OUTBOUND_RETENTION_MS), call('OUT-new', 0)]);
    expect(forgetRemoved(calls, 0)).toBe(1);
    expect([...calls.keys()]).toEqual(['OUT-kept', 'OUT-new']);
  });
});
