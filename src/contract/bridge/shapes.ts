import { z } from 'zod';
import { meaning } from '../meaning.js';
import { defineErrors } from '../rule.js';

/** Bridge-ended request: all three fields are required. */
export const BridgeEndedRequest = z.object({
  conversation_id: meaning(z.string(), { rule: 'bridge.request.conversation-id-required', required: true }),
  bridge_duration_seconds: meaning(z.number(), { rule: 'bridge.request.bridge-duration-required', required: true }),
  call_duration_seconds: meaning(z.number(), { rule: 'bridge.request.call-duration-required', required: true }),
});
export type BridgeEndedRequest = z.infer<typeof BridgeEndedRequest>;

/** Bridge-ended error body. */
export const BridgeErrorBody = z.object({ error_message: z.string() });
export type BridgeErrorBody = z.infer<typeof BridgeErrorBody>;

/** Success status of bridge-ended on the reference target (no body); the document does not show it. */
export const BRIDGE_ENDED_REFERENCE_STATUS = 204;

/**
 * Conversation state keys the reference target writes on bridge-ended; the document says state is
 * updated but names no keys.
 */
export const BRIDGE_STATE_KEYS = {
  bridgeDuration: 'bridge_duration_seconds',
  callDuration: 'call_duration_seconds',
} as const;

/** Bridge-ended credential header (the external-events key), exactly as the Authentication table writes it. */
export const BridgeHeaders = {
  apiKey: 'X-Api-Key',
} as const;

/**
 * Bridge-ended error catalogue. The document shows only the `error_message` body: every status
 * and text here is the reference target's choice.
 */
export const BridgeErrors = defineErrors({
  INVALID_BODY: {
    status: 400,
    text: 'conversation_id (string), bridge_duration_seconds (number) and call_duration_seconds (number) are required',
    documented: false,
  },
  MISSING_KEY: { status: 401, text: 'Missing API key', documented: false },
  INVALID_KEY: { status: 401, text: 'Invalid API key', documented: false },
  UNKNOWN_CONVERSATION: { status: 404, text: 'Conversation not found', documented: false },
  NOT_ENABLED: { status: 404, text: 'Call transfer or bridge is not configured for this project', documented: false },
});
