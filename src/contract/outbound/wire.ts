// Plain values without zod, for k6 scenarios: a k6 bundle that imports zod makes every VU build all of it at start
// (about 750 KB of code a VU), which costs the generator CPU and memory per VU. outbound.ts re-exports them.

/** Prefix of every outbound call identifier. */
export const CALL_SID_PREFIX = 'OUT-';

/** Outbound call statuses, in documented order (outbound.ts makes the zod enum OutboundStatus of them). */
export const OUTBOUND_STATUSES = ['queued', 'calling', 'success', 'failure'] as const;
export type OutboundStatusName = (typeof OUTBOUND_STATUSES)[number];

/** Statuses a call never leaves (until its status is removed after retention). */
export const TERMINAL_STATUSES = ['success', 'failure'] as const satisfies readonly OutboundStatusName[];

/**
 * Whether a status is terminal.
 *
 * @example
 * isTerminalStatus('failure'); // true
 */
export function isTerminalStatus(status: OutboundStatusName): boolean {
  return (TERMINAL_STATUSES as readonly OutboundStatusName[]).includes(status);
}

/** How long a finished call's status stays retrievable: about 2 hours after the call ends, then 404. */
export const OUTBOUND_RETENTION_MS = 2 * 60 * 60 * 1000;

const STATUS_RANK: Record<OutboundStatusName, number> = { queued: 0, calling: 1, success: 2, failure: 2 };

/**
 * Whether `to` may follow `from` when polling: queued → calling → success | failure, never backwards,
 * never from one terminal status to the other. A poll may skip a status (queued → success).
 * Same status twice is not a transition and answers false.
 *
 * @example
 * isForwardTransition('queued', 'calling'); // true
 * isForwardTransition('calling', 'failure'); // true
 * isForwardTransition('success', 'calling'); // false
 * isForwardTransition('success', 'failure'); // false
 */
export function isForwardTransition(from: OutboundStatusName, to: OutboundStatusName): boolean {
  return STATUS_RANK[to] > STATUS_RANK[from];
}

/** Outbound credential header (a token issued per project), exactly as the Authentication table writes it. */
export const OutboundHeaders = {
  serviceAuthToken: 'X-Service-Auth-Token',
} as const;
