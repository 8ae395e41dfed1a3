import { OUTBOUND_RETENTION_MS, type OutboundStatus, REFERENCE_CALL_TIMING } from '../../contract/outbound/shapes.js';

/** How a call ends: connected and completed, or failed to connect / not answered. */
export type CallOutcome = 'success' | 'failure';

/** One outbound call the reference target placed. */
export interface OutboundCall {
  readonly sid: string;
  readonly toNumber: string;
  readonly fromNumber: string | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly encryption: Record<string, unknown> | undefined;
  /** Target-clock time of the trigger. */
  readonly createdAt: number;
  /** A manual call moves only when advanced (control surface), never with the clock. */
  readonly manual: boolean;
  /** Time added to this call alone, so one case can age its call without touching the shared clock. */
  advancedMs: number;
  outcome: CallOutcome;
  /** Status reads answered since the call reached its terminal status. */
  terminalReads: number;
}

/** A call's status at one instant, or undefined once the status has been removed. */
export interface CallState {
  readonly status: OutboundStatus;
  /** Target-clock time at which the call entered this status. */
  readonly since: number;
}

/** How long each phase lasts and how long a finished call's status is kept. */
export interface CallTiming {
  readonly queuedMs: number;
  readonly callingMs: number;
  readonly retentionMs: number;
}

/** The reference target's timing: 1 s queued, 2 s calling, status kept 2 hours after the call ends. */
export const REFERENCE_TIMING: CallTiming = {
  queuedMs: REFERENCE_CALL_TIMING.queued_ms,
  callingMs: REFERENCE_CALL_TIMING.calling_ms,
  retentionMs: OUTBOUND_RETENTION_MS,
};

/** How far into its life a call is at `now` (target clock). */
export function elapsedOf(call: Pick<OutboundCall, 'manual' | 'createdAt' | 'advancedMs'>, now: number): number {
  return (call.manual ? 0 : Math.max(0, now - call.createdAt)) + call.advancedMs;
}

/**
 * The state machine of an outbound call as a function of its elapsed time: queued, then calling,
 * then its outcome from the moment the call ends, until the retention after the end has passed
 * (undefined: the status is removed, and reads answer 404).
 *
 * @example
 * callState({ manual: true, createdAt: 0, advancedMs: 1_500, outcome: 'success' }, 0); // { status: 'calling', since: … }
 */
export function callState(
  call: Pick<OutboundCall, 'manual' | 'createdAt' | 'advancedMs' | 'outcome'>,
  now: number,
  timing: CallTiming = REFERENCE_TIMING,
): CallState | undefined {
  const elapsed = elapsedOf(call, now);
  const end = timing.queuedMs + timing.callingMs;
  // `since` on the target clock: now minus how long the call has been in this phase.
  const since = (phaseStart: number) => now - (elapsed - phaseStart);
  if (elapsed < timing.queuedMs) return { status: 'queued', since: since(0) };
  if (elapsed < end) return { status: 'calling', since: since(timing.queuedMs) };
  if (elapsed < end + timing.retentionMs) return { status: call.outcome, since: since(end) };
  return undefined;
}

/**
 * The outcome the reference target gives a call when no case forced one: numbers ending in 8 are
 * not answered and numbers ending in 9 fail to connect (both `failure`), every other one connects.
 *
 * @example
 * defaultOutcome('+447700900128'); // 'failure'
 */
export function defaultOutcome(toNumber: string): CallOutcome {
  return /[89]$/.test(toNumber) ? 'failure' : 'success';
}

/**
 * Forgets the calls whose status has been removed (retention after the end passed) at `now`, so a long run keeps only
 * calls it may still answer for; a removed status answers 404 whether its call is kept or not. Returns how many went.
 *
 * @example
 * forgetRemoved(calls, clock.now()); // 0 while every call is inside its retention
 */
export function forgetRemoved(calls: Map<string, OutboundCall>, now: number, timing: CallTiming = REFERENCE_TIMING): number {
  let gone = 0;
  for (const [sid, call] of calls) {
    if (callState(call, now, timing) !== undefined) continue;
    calls.delete(sid);
    gone++;
  }
  return gone;
}
