import { z } from 'zod';
import { IsoDateTime } from '../common.js';
import { defineErrors } from '../rule.js';
import { OUTBOUND_STATUSES } from './wire.js';

export {
  CALL_SID_PREFIX,
  isForwardTransition,
  isTerminalStatus,
  OUTBOUND_RETENTION_MS,
  OUTBOUND_STATUSES,
  OutboundHeaders,
  TERMINAL_STATUSES,
} from './wire.js';

/** An E.164 phone number: `+`, a non-zero digit, at most 15 digits in all. */
export const E164_REGEX = /^\+[1-9]\d{1,14}$/;

/** An E.164 phone number. */
export const E164 = z.string().regex(E164_REGEX, 'phone number must be E.164, e.g. +447700900123');

/** An outbound call identifier: `OUT-` followed by at least one character. */
export const CallSid = z.string().regex(/^OUT-.+$/, 'call_sid must start with OUT-');

/** Outbound call statuses, in documented order. */
export const OutboundStatus = z.enum(OUTBOUND_STATUSES);
export type OutboundStatus = z.infer<typeof OutboundStatus>;

/** One row of the outbound status transition table; `documented: false` rows are the reference target's choice. */
export interface OutboundTransition {
  readonly from: OutboundStatus;
  readonly to: OutboundStatus | 'removed';
  readonly trigger: string;
  readonly condition: string;
  readonly documented: boolean;
}

/**
 * The outbound transition table. "A placed call" of the document is `calling`. The start in
 * `queued` and the move to `calling` are not shown: those rows are the reference target's choice.
 */
export const OUTBOUND_TRANSITIONS = [
  { from: 'queued', to: 'calling', trigger: 'call placed', condition: 'always', documented: false },
  { from: 'calling', to: 'success', trigger: 'call completion', condition: 'call connected and completed', documented: true },
  { from: 'calling', to: 'failure', trigger: 'call completion', condition: 'failed to connect or not answered', documented: true },
  { from: 'success', to: 'removed', trigger: 'about 2 hours after call end', condition: 'always', documented: true },
  { from: 'failure', to: 'removed', trigger: 'about 2 hours after call end', condition: 'always', documented: true },
] as const satisfies readonly OutboundTransition[];

/** Status right after a trigger on the reference target; the document does not show it. */
export const REFERENCE_INITIAL_STATUS: OutboundStatus = 'queued';

/**
 * How long a call stays in each non-terminal status on the reference target (its choice: the
 * document shows no timings). A call ends `queued_ms + calling_ms` after its trigger.
 */
export const REFERENCE_CALL_TIMING = { queued_ms: 1000, calling_ms: 2000 } as const;

/** Success status of a trigger on the reference target; the document does not show it. */
export const OUTBOUND_TRIGGER_REFERENCE_STATUS = 201;

/**
 * Trigger request. The document names the contents (E.164 destination, optional metadata, optional
 * encryption) but no field names: these names are the reference target's choice.
 */
export const OutboundTriggerRequest = z.object({
  /** Destination, E.164. Field name: reference target's choice. */
  to_number: E164,
  /** Caller id, E.164. Not in the document: reference target's choice. */
  from_number: E164.optional(),
  /** Optional metadata. Field name: reference target's choice. */
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Optional encryption settings. Field name and contents: reference target's choice. */
  encryption: z.record(z.string(), z.unknown()).optional(),
});
export type OutboundTriggerRequest = z.infer<typeof OutboundTriggerRequest>;

/** Trigger response: `call_sid` is documented, with prefix `OUT-`. */
export const OutboundTriggerResponse = z.object({
  call_sid: CallSid,
});
export type OutboundTriggerResponse = z.infer<typeof OutboundTriggerResponse>;

/**
 * Status response. The status values are documented; the field names (`call_sid`, `status`,
 * `updated_at`) are the reference target's choice.
 */
export const OutboundStatusResponse = z.object({
  call_sid: CallSid,
  status: OutboundStatus,
  updated_at: IsoDateTime,
});
export type OutboundStatusResponse = z.infer<typeof OutboundStatusResponse>;

/** Outbound error body. Not shown in the document: the reference target's choice, in line with the other APIs. */
export const OutboundErrorBody = z.object({ error_message: z.string() });
export type OutboundErrorBody = z.infer<typeof OutboundErrorBody>;

/** The status document 2's Errors table gives the outbound status endpoint, with its meaning, verbatim; other codes are not shown. */
export const OUTBOUND_STATUS_ERROR_STATUSES = {
  404: 'Unknown call, or data retained past about 2 hours.',
} as const;

/**
 * Outbound error catalogue. The 404 for an unknown or expired call is documented; every text,
 * and every status other than 404, is the reference target's choice.
 */
export const OutboundErrors = defineErrors({
  UNKNOWN_CALL: { status: 404, text: 'Call not found', documented: false },
  STATUS_EXPIRED: { status: 404, text: 'Call not found', documented: false },
  INVALID_DESTINATION: { status: 400, text: 'to_number must be an E.164 phone number', documented: false },
  INVALID_BODY: { status: 400, text: 'Invalid request body', documented: false },
  MISSING_TOKEN: { status: 401, text: 'Missing X-Service-Auth-Token', documented: false },
  INVALID_TOKEN: { status: 401, text: 'Invalid service auth token', documented: false },
});
