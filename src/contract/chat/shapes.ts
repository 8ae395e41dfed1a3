import { z } from 'zod';
import { meaning } from '../meaning.js';
import { defineErrors } from '../rule.js';

/** Chat channels accepted on create (document 1, Chat: create request). */
export const ChatChannel = z.enum(['webchat', 'whatsapp', 'sms', 'api']);
export type ChatChannel = z.infer<typeof ChatChannel>;

/** The three operations of the chat path segment. */
export const ChatOperation = z.enum(['create', 'respond', 'close']);
export type ChatOperation = z.infer<typeof ChatOperation>;

/** Language plus region, for example `en-GB` (asr_lang_code, tts_lang_code). */
export const LangCode = z.string().regex(/^[a-z]{2,3}-[A-Z]{2}$/, 'language code must be language plus region, e.g. en-GB');

/** POST chat/create body. The body itself is optional and every field in it is optional. */
export const ChatCreateRequest = z.object({
  integration_attributes: z.record(z.string(), z.unknown()).optional(),
  variant_id: z.string().optional(),
  channel: ChatChannel.optional(),
  asr_lang_code: LangCode.optional(),
  tts_lang_code: LangCode.optional(),
  initial_message: z.string().optional(),
});
export type ChatCreateRequest = z.infer<typeof ChatCreateRequest>;

export const ChatCreateResponse = z.object({
  conversation_id: z.string(),
  response: z.string(),
});
export type ChatCreateResponse = z.infer<typeof ChatCreateResponse>;

/** POST chat/respond body: conversation_id is the one required field. */
export const ChatRespondRequest = z.object({
  conversation_id: meaning(z.string(), { rule: 'chat.respond.conversation-id-required', required: true }),
  message: z.string().optional(),
  integration_attributes: z.record(z.string(), z.unknown()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  asr_lang_code: LangCode.optional(),
  tts_lang_code: LangCode.optional(),
});
export type ChatRespondRequest = z.infer<typeof ChatRespondRequest>;

/** The handoff object a respond response may carry. */
export const Handoff = meaning(
  z.object({
    destination: z.string(),
    reason: z.string(),
  }),
  { rule: 'chat.respond.handoff-shape' },
);
export type Handoff = z.infer<typeof Handoff>;

export const ChatRespondResponse = z.object({
  conversation_id: z.string(),
  response: z.string(),
  end_conversation: z.boolean(),
  handoff: Handoff.optional(),
});
export type ChatRespondResponse = z.infer<typeof ChatRespondResponse>;

/** PUT chat/close body. */
export const ChatCloseRequest = z.object({ conversation_id: meaning(z.string(), { rule: 'chat.close.conversation-id-required', required: true }) });
export type ChatCloseRequest = z.infer<typeof ChatCloseRequest>;

export const ChatCloseResponse = z.object({ success: z.boolean() });
export type ChatCloseResponse = z.infer<typeof ChatCloseResponse>;

export { ChatHeaders } from './wire.js';

/**
 * Chat error bodies and statuses are not shown in document 1: these are the reference target's
 * choices (documented: false). Bodies are `{ error_message }`, the shape document 2 uses on the
 * same runtime host. The suite never fails a real target for choosing other texts or codes.
 */
export const ChatErrors = defineErrors({
  MISSING_CREDENTIALS: { status: 401, text: 'Missing X-API-KEY or X-TOKEN header', documented: false },
  INVALID_CREDENTIALS: { status: 401, text: 'Invalid API key or connector token', documented: false },
  UNKNOWN_VERSION: { status: 404, text: 'Unsupported API version', documented: false },
  UNKNOWN_TENANT: { status: 404, text: 'Account or project not found', documented: false },
  UNKNOWN_OPERATION: { status: 404, text: 'Unknown chat operation', documented: false },
  METHOD_NOT_ALLOWED: { status: 405, text: 'Method not allowed for this chat operation', documented: false },
  MALFORMED_JSON: { status: 400, text: 'Malformed JSON body', documented: false },
  CONVERSATION_ID_REQUIRED: { status: 400, text: 'conversation_id is required', documented: false },
  VARIANT_ONLY_ON_CREATE: { status: 400, text: 'variant_id can only be set on create', documented: false },
  INVALID_FIELD: { status: 400, text: 'Invalid request field', documented: false },
  CONVERSATION_NOT_FOUND: { status: 404, text: 'Conversation not found', documented: false },
  CONVERSATION_CLOSED: { status: 409, text: 'Conversation is closed', documented: false },
});

/** The error body the reference target sends on the runtime host. */
export const ErrorMessageBody = z.object({ error_message: z.string() });
export type ErrorMessageBody = z.infer<typeof ErrorMessageBody>;
