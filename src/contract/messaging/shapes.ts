import { z } from 'zod';
import { meaning } from '../meaning.js';
import { defineErrors } from '../rule.js';

export {
  AccessTokenHeaders,
  bearer,
  CURSOR_PREFIX,
  formatCursor,
  JSON_CONTENT_TYPE,
  MAX_SOCKETS_PER_SESSION,
  MessagingPaths,
  REFERENCE_MESSAGING_HOST,
  RETRY_AFTER_HEADER,
  SessionHeaders,
} from './wire.js';

// Messaging API of document 1: access token, session, WebSocket, events, error catalogue, limits.
// Everything the document leaves "not shown" and this file still pins is marked "Reference-target choice"
// in its TSDoc: the reference target does it, the conformance suite never fails a real target for differing.

/** Access-token request body: an empty JSON object. */
export const AccessTokenRequest = z.object({});
export type AccessTokenRequest = z.infer<typeof AccessTokenRequest>;

/** Access-token 200 response: a JWT, its lifetime in whole seconds, and the literal type Bearer. */
export const AccessTokenResponse = z.object({
  access_token: z.string().min(1),
  /** Seconds until expiry: the token's own exp less iat, where it carries them (a value in milliseconds would not be). */
  expires_in: meaning(z.number().int(), { lifetimeOf: { token: 'access_token', rule: 'messaging.access-token.response-fields' } }),
  token_type: z.literal('Bearer'),
});
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;

/** A JWT in compact form: three base64url segments separated by dots (the signature may be empty). */
export const JwtCompact = z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, 'access_token must be a compact JWT');

/** Session platforms (document 1, Session). */
export const Platform = z.enum(['web', 'ios', 'android', 'custom']);
export type Platform = z.infer<typeof Platform>;

/** POST sessions body. The body is optional; an omitted body means both defaults. */
export const SessionRequest = z.object({
  streaming_enabled: z.boolean().default(false),
  platform: Platform.default('web'),
});
export type SessionRequest = z.infer<typeof SessionRequest>;

/** Session 200 response: the id needed to open the WebSocket and to reconnect. */
export const SessionResponse = z.object({
  session_id: z.string().min(1),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

/**
 * HTTP error body of the messaging endpoints. Reference-target choice: the document gives the error texts
 * but not the body that carries them; the reference target answers `{ "error": "<text>" }`.
 */
export const MessagingHttpErrorBody = z.object({
  error: z.string(),
});
export type MessagingHttpErrorBody = z.infer<typeof MessagingHttpErrorBody>;

/** Generic meaning of each HTTP status on the messaging endpoints (document 1, Errors). */
export const MessagingHttpStatus = {
  400: 'Missing required headers or malformed body.',
  401: 'Invalid or expired access token, or unrecognised connector token.',
  404: 'Session not found.',
  429: 'Rate limit exceeded; `Retry-After` header gives when to retry.',
  500: 'Server error; retry with exponential backoff.',
} as const;

// ---------------------------------------------------------------------------------------------
// Event types
// ---------------------------------------------------------------------------------------------

/**
 * Every event type name. Documented: EVENT_TYPE_EVENT_BATCH, EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN,
 * EVENT_TYPE_SERVICE_AGENT_JOINED, EVENT_TYPE_SYSTEM_MESSAGE, SESSION_END. Every other name is a
 * reference-target choice (the document says the other client types and the full server catalogue are "not shown").
 * EVENT_TYPE_TYPING_INDICATOR and EVENT_TYPE_DELIVERY_RECEIPT are used in both directions under one name.
 */
export const EventType = z.enum([
  'EVENT_TYPE_EVENT_BATCH',
  'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN',
  'EVENT_TYPE_SERVICE_AGENT_JOINED',
  'EVENT_TYPE_SYSTEM_MESSAGE',
  'SESSION_END',
  'EVENT_TYPE_USER_MESSAGE',
  'EVENT_TYPE_TYPING_INDICATOR',
  'EVENT_TYPE_DELIVERY_RECEIPT',
  'EVENT_TYPE_REQUEST_LIVE_AGENT',
  'EVENT_TYPE_AGENT_MESSAGE',
  'EVENT_TYPE_AGENT_MESSAGE_CHUNK',
  'EVENT_TYPE_LIVE_AGENT_JOINED',
  'EVENT_TYPE_LIVE_AGENT_MESSAGE',
]);
export type EventType = z.infer<typeof EventType>;

/** The event types the document itself names; every other member of `EventType` is a reference-target choice. */
export const DocumentedEventType = EventType.extract([
  'EVENT_TYPE_EVENT_BATCH',
  'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN',
  'EVENT_TYPE_SERVICE_AGENT_JOINED',
  'EVENT_TYPE_SYSTEM_MESSAGE',
  'SESSION_END',
]);
export type DocumentedEventType = z.infer<typeof DocumentedEventType>;

/**
 * The exactly 5 client-to-server types. Documented: EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN; the other four
 * names are reference-target choices (the document gives only their count).
 */
export const ClientEventType = z.enum([
  'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN',
  'EVENT_TYPE_USER_MESSAGE',
  'EVENT_TYPE_TYPING_INDICATOR',
  'EVENT_TYPE_DELIVERY_RECEIPT',
  'EVENT_TYPE_REQUEST_LIVE_AGENT',
]);
export type ClientEventType = z.infer<typeof ClientEventType>;

/**
 * Server-to-client types. Documented: EVENT_BATCH, SERVICE_AGENT_JOINED, SYSTEM_MESSAGE, SESSION_END; the rest are
 * reference-target choices. TYPING_INDICATOR and DELIVERY_RECEIPT reuse the client names (so they are not server-only).
 */
export const ServerEventType = z.enum([
  'EVENT_TYPE_EVENT_BATCH',
  'EVENT_TYPE_SERVICE_AGENT_JOINED',
  'EVENT_TYPE_SYSTEM_MESSAGE',
  'SESSION_END',
  'EVENT_TYPE_AGENT_MESSAGE',
  'EVENT_TYPE_AGENT_MESSAGE_CHUNK',
  'EVENT_TYPE_TYPING_INDICATOR',
  'EVENT_TYPE_DELIVERY_RECEIPT',
  'EVENT_TYPE_LIVE_AGENT_JOINED',
  'EVENT_TYPE_LIVE_AGENT_MESSAGE',
]);
export type ServerEventType = z.infer<typeof ServerEventType>;

/** Server types a client may not send: sending one is answered `Event type not allowed: <type>`. */
export const ServerOnlyEventType = ServerEventType.exclude(['EVENT_TYPE_TYPING_INDICATOR', 'EVENT_TYPE_DELIVERY_RECEIPT']);
export type ServerOnlyEventType = z.infer<typeof ServerOnlyEventType>;

/** How the server treats an incoming client `type`: allowed, a known server-only type, or unknown. */
export type ClientTypeVerdict = 'allowed' | 'not-allowed' | 'unknown';

/**
 * Classifies a client event `type` the way the error catalogue does.
 *
 * @example
 * classifyClientEventType('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN') // 'allowed'
 * classifyClientEventType('EVENT_TYPE_SERVICE_AGENT_JOINED') // 'not-allowed'
 * classifyClientEventType('EVENT_TYPE_NOPE') // 'unknown'
 */
export function classifyClientEventType(type: string): ClientTypeVerdict {
  if (ClientEventType.safeParse(type).success) return 'allowed';
  if (ServerOnlyEventType.safeParse(type).success) return 'not-allowed';
  return 'unknown';
}

// ---------------------------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------------------------

/** Client-sent custom metadata: a free JSON object that server events echo back as `metadata.custom`. */
export const CustomMetadata = z.record(z.string(), z.unknown());
export type CustomMetadata = z.infer<typeof CustomMetadata>;

/** Client event metadata: optional, with optional `custom`. Other keys are not shown. */
export const ClientEventMetadata = z.object({
  custom: CustomMetadata.optional(),
});
export type ClientEventMetadata = z.infer<typeof ClientEventMetadata>;

/** Server event metadata: always present; `custom` echoes what the client sent, including in error messages. */
export const ServerEventMetadata = z.object({
  custom: CustomMetadata.optional(),
});
export type ServerEventMetadata = z.infer<typeof ServerEventMetadata>;

/**
 * Any event before its type is checked: `type` (string) and `payload` (object). A message that fails this is
 * answered `Unknown event type or invalid message format`. Envelope fields beyond these names are not shown.
 */
export const EventEnvelope = z.object({
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  metadata: ClientEventMetadata.optional(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** A client-to-server event: one of the 5 client types, a payload object, optional metadata. */
export const ClientEvent = z.object({
  type: ClientEventType,
  payload: z.record(z.string(), z.unknown()),
  metadata: ClientEventMetadata.optional(),
});
export type ClientEvent = z.infer<typeof ClientEvent>;

/**
 * A server-to-client event: additionally `id`, `timestamp` and `metadata`. Their formats are not shown, so a
 * string or a number is accepted; reference-target choice: `id` is a string and `timestamp` ISO 8601 with zone.
 */
export const ServerEvent = z.object({
  id: z.union([z.string().min(1), z.number()]),
  timestamp: z.union([z.string().min(1), z.number()]),
  type: ServerEventType,
  payload: z.record(z.string(), z.unknown()),
  metadata: ServerEventMetadata,
});
export type ServerEvent = z.infer<typeof ServerEvent>;

/**
 * One event of a history replay: a server-stamped event of any type but the batch itself.
 * Reference-target choice: history holds the session's broadcast server events in order (not per-socket error replies).
 */
export const HistoryEvent = ServerEvent.extend({
  type: ServerEventType.exclude(['EVENT_TYPE_EVENT_BATCH']),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;

// ---------------------------------------------------------------------------------------------
// Payloads (client)
// ---------------------------------------------------------------------------------------------

/** EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN payload: documented as an empty object. */
export const RequestServiceAgentJoinPayload = z.object({});
export type RequestServiceAgentJoinPayload = z.infer<typeof RequestServiceAgentJoinPayload>;

/** EVENT_TYPE_USER_MESSAGE payload. Reference-target choice: `text`, plus an optional client-chosen id. */
export const UserMessagePayload = z.object({
  text: z.string().min(1),
  client_message_id: z.string().min(1).optional(),
});
export type UserMessagePayload = z.infer<typeof UserMessagePayload>;

/** Who a server typing indicator or message comes from. Reference-target choice. */
export const Participant = z.enum(['agent', 'live_agent']);
export type Participant = z.infer<typeof Participant>;

/** EVENT_TYPE_TYPING_INDICATOR payload from the client. Reference-target choice. */
export const TypingIndicatorPayload = z.object({
  is_typing: z.boolean(),
});
export type TypingIndicatorPayload = z.infer<typeof TypingIndicatorPayload>;

/** EVENT_TYPE_TYPING_INDICATOR payload from the server: also says who is typing. Reference-target choice. */
export const ServerTypingIndicatorPayload = TypingIndicatorPayload.extend({
  participant: Participant,
});
export type ServerTypingIndicatorPayload = z.infer<typeof ServerTypingIndicatorPayload>;

/** Delivery receipt states. Reference-target choice. */
export const DeliveryStatus = z.enum(['delivered', 'read']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/**
 * EVENT_TYPE_DELIVERY_RECEIPT payload, both directions. Reference-target choice: the client acknowledges an agent
 * `message_id`; the server acknowledges a user message by its `client_message_id` (sent as `message_id`).
 */
export const DeliveryReceiptPayload = z.object({
  message_id: z.string().min(1),
  status: DeliveryStatus,
});
export type DeliveryReceiptPayload = z.infer<typeof DeliveryReceiptPayload>;

/** EVENT_TYPE_REQUEST_LIVE_AGENT payload: asks for a human agent in the same session. Reference-target choice. */
export const RequestLiveAgentPayload = z.object({
  reason: z.string().optional(),
});
export type RequestLiveAgentPayload = z.infer<typeof RequestLiveAgentPayload>;

// ---------------------------------------------------------------------------------------------
// Payloads (server)
// ---------------------------------------------------------------------------------------------

/** System message levels. Documented: SYSTEM_MESSAGE_LEVEL_ERROR; INFO and WARNING are reference-target choices. */
export const SystemMessageLevel = z.enum(['SYSTEM_MESSAGE_LEVEL_ERROR', 'SYSTEM_MESSAGE_LEVEL_WARNING', 'SYSTEM_MESSAGE_LEVEL_INFO']);
export type SystemMessageLevel = z.infer<typeof SystemMessageLevel>;

/**
 * EVENT_TYPE_SYSTEM_MESSAGE payload. The document says errors "carry level SYSTEM_MESSAGE_LEVEL_ERROR";
 * the name `text` of the field holding the message is a reference-target choice.
 */
export const SystemMessagePayload = z.object({
  level: SystemMessageLevel,
  text: z.string(),
});
export type SystemMessagePayload = z.infer<typeof SystemMessagePayload>;

/** EVENT_TYPE_EVENT_BATCH payload: the replayed history, oldest first. Field name `events` is a reference-target choice. */
export const EventBatchPayload = z.object({
  events: z.array(HistoryEvent),
});
export type EventBatchPayload = z.infer<typeof EventBatchPayload>;

/** EVENT_TYPE_SERVICE_AGENT_JOINED payload. Reference-target choice: empty object. */
export const ServiceAgentJoinedPayload = z.object({});
export type ServiceAgentJoinedPayload = z.infer<typeof ServiceAgentJoinedPayload>;

/** Why a session ended. Reference-target choice. */
export const SessionEndReason = z.enum(['expired', 'error', 'closed']);
export type SessionEndReason = z.infer<typeof SessionEndReason>;

/** SESSION_END payload. Reference-target choice: an optional reason. */
export const SessionEndPayload = z.object({
  reason: SessionEndReason.optional(),
});
export type SessionEndPayload = z.infer<typeof SessionEndPayload>;

/** EVENT_TYPE_AGENT_MESSAGE payload: one complete agent response (streaming off). Reference-target choice. */
export const AgentMessagePayload = z.object({
  message_id: z.string().min(1),
  text: z.string(),
});
export type AgentMessagePayload = z.infer<typeof AgentMessagePayload>;

/**
 * EVENT_TYPE_AGENT_MESSAGE_CHUNK payload: one incremental piece of an agent response (streaming on).
 * Reference-target choice: chunks of one `message_id` have `index` 0, 1, 2, ... and the last has `final: true`;
 * concatenating `text` in index order gives the whole response.
 */
export const AgentMessageChunkPayload = z.object({
  message_id: z.string().min(1),
  index: z.number().int().nonnegative(),
  text: z.string(),
  final: z.boolean(),
});
export type AgentMessageChunkPayload = z.infer<typeof AgentMessageChunkPayload>;

/** EVENT_TYPE_LIVE_AGENT_JOINED payload: a human agent took over the session. Reference-target choice. */
export const LiveAgentJoinedPayload = z.object({
  display_name: z.string().optional(),
});
export type LiveAgentJoinedPayload = z.infer<typeof LiveAgentJoinedPayload>;

/** EVENT_TYPE_LIVE_AGENT_MESSAGE payload: a message from the human agent. Reference-target choice. */
export const LiveAgentMessagePayload = z.object({
  message_id: z.string().min(1),
  text: z.string(),
  display_name: z.string().optional(),
});
export type LiveAgentMessagePayload = z.infer<typeof LiveAgentMessagePayload>;

/** Payload schema per client type (only the join payload is documented). */
export const ClientEventPayloads = {
  EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN: RequestServiceAgentJoinPayload,
  EVENT_TYPE_USER_MESSAGE: UserMessagePayload,
  EVENT_TYPE_TYPING_INDICATOR: TypingIndicatorPayload,
  EVENT_TYPE_DELIVERY_RECEIPT: DeliveryReceiptPayload,
  EVENT_TYPE_REQUEST_LIVE_AGENT: RequestLiveAgentPayload,
} as const satisfies Record<ClientEventType, z.ZodType>;

/** Payload schema per server type (every shape here is a reference-target choice except the system message level). */
export const ServerEventPayloads = {
  EVENT_TYPE_EVENT_BATCH: EventBatchPayload,
  EVENT_TYPE_SERVICE_AGENT_JOINED: ServiceAgentJoinedPayload,
  EVENT_TYPE_SYSTEM_MESSAGE: SystemMessagePayload,
  SESSION_END: SessionEndPayload,
  EVENT_TYPE_AGENT_MESSAGE: AgentMessagePayload,
  EVENT_TYPE_AGENT_MESSAGE_CHUNK: AgentMessageChunkPayload,
  EVENT_TYPE_TYPING_INDICATOR: ServerTypingIndicatorPayload,
  EVENT_TYPE_DELIVERY_RECEIPT: DeliveryReceiptPayload,
  EVENT_TYPE_LIVE_AGENT_JOINED: LiveAgentJoinedPayload,
  EVENT_TYPE_LIVE_AGENT_MESSAGE: LiveAgentMessagePayload,
} as const satisfies Record<ServerEventType, z.ZodType>;

/** A client event with its payload checked against the reference-target shape for its type. */
export const TypedClientEvent = z.discriminatedUnion('type', [
  ClientEvent.extend({ type: z.literal('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN'), payload: RequestServiceAgentJoinPayload }),
  ClientEvent.extend({ type: z.literal('EVENT_TYPE_USER_MESSAGE'), payload: UserMessagePayload }),
  ClientEvent.extend({ type: z.literal('EVENT_TYPE_TYPING_INDICATOR'), payload: TypingIndicatorPayload }),
  ClientEvent.extend({ type: z.literal('EVENT_TYPE_DELIVERY_RECEIPT'), payload: DeliveryReceiptPayload }),
  ClientEvent.extend({ type: z.literal('EVENT_TYPE_REQUEST_LIVE_AGENT'), payload: RequestLiveAgentPayload }),
]);
export type TypedClientEvent = z.infer<typeof TypedClientEvent>;

/** A server event with its payload checked against the reference-target shape for its type. */
export const TypedServerEvent = z.discriminatedUnion('type', [
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_EVENT_BATCH'), payload: EventBatchPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_SERVICE_AGENT_JOINED'), payload: ServiceAgentJoinedPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_SYSTEM_MESSAGE'), payload: SystemMessagePayload }),
  ServerEvent.extend({ type: z.literal('SESSION_END'), payload: SessionEndPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_AGENT_MESSAGE'), payload: AgentMessagePayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_AGENT_MESSAGE_CHUNK'), payload: AgentMessageChunkPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_TYPING_INDICATOR'), payload: ServerTypingIndicatorPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_DELIVERY_RECEIPT'), payload: DeliveryReceiptPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_LIVE_AGENT_JOINED'), payload: LiveAgentJoinedPayload }),
  ServerEvent.extend({ type: z.literal('EVENT_TYPE_LIVE_AGENT_MESSAGE'), payload: LiveAgentMessagePayload }),
]);
export type TypedServerEvent = z.infer<typeof TypedServerEvent>;

// ---------------------------------------------------------------------------------------------
// WebSocket query and cursor
// ---------------------------------------------------------------------------------------------

/**
 * WebSocket query parameters. `access_token` and `session_id` are required (missing: 400
 * `invalid connection parameters`); `cursor` is any string, since an invalid one never rejects the connection.
 */
export const WsQuery = z.object({
  access_token: z.string().min(1),
  session_id: z.string().min(1),
  cursor: z.string().optional(),
});
export type WsQuery = z.infer<typeof WsQuery>;

/**
 * Reads a history cursor. Anything that is not `seq:<non-negative integer>` (absent, non-numeric, negative,
 * fractional, unsafe) reads as 0, which the document says means `seq:0`: replay the full history.
 * Reference-target reading of "position": `seq:<n>` resumes after the first n history events.
 *
 * @example
 * parseCursor('seq:12') // 12
 * parseCursor('seq:abc') // 0
 * parseCursor(undefined) // 0
 */
export function parseCursor(s: string | null | undefined): number {
  if (typeof s !== 'string') return 0;
  const m = /^seq:(\d+)$/.exec(s);
  if (!m?.[1]) return 0;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : 0;
}

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

/** Session inactivity expiry: "about 10 minutes". */
export const SESSION_IDLE_EXPIRY_MS = 10 * 60_000;

// ---------------------------------------------------------------------------------------------
// Error catalogue
// ---------------------------------------------------------------------------------------------

/** POST access-token errors (document 1, Errors / Access token endpoint). */
export const AccessTokenErrors = defineErrors({
  MISSING_HEADERS: { status: 401, text: 'Missing authentication headers', documented: true },
  CONNECTOR_TOKEN_NOT_FOUND: { status: 401, text: 'Connector token does not exist', documented: true },
  CONNECTOR_VALIDATION_FAILED: { status: 401, text: 'Failed to validate connector', documented: true },
  CONNECTOR_MISSING_HOST: { status: 401, text: 'Connector missing host domain', documented: true },
  CREATE_FAILED: { status: 500, text: 'Failed to create access token', documented: true },
});

/** POST sessions errors (document 1, Errors / Session endpoint). */
export const SessionErrors = defineErrors({
  MISSING_ACCESS_TOKEN: { status: 400, text: 'Missing access token', documented: true },
  MISSING_HEADERS: { status: 401, text: 'Missing authentication headers', documented: true },
  INVALID_ACCESS_TOKEN: { status: 401, text: 'Invalid access token', documented: true },
  PARSE_ERROR: { status: 400, text: 'Error parsing request', documented: true },
  CREATE_FAILED: { status: 500, text: 'Failed to create session', documented: true },
});

/**
 * The 429 of a rate-limited messaging HTTP request. Documented: the status and the Retry-After header;
 * the text is a reference-target choice.
 */
export const RateLimitErrors = defineErrors({
  RATE_LIMITED: { status: 429, text: 'Rate limit exceeded', documented: false },
});

/**
 * How many seconds a Retry-After value says to wait (RFC 9110: whole seconds, or an HTTP date, read against the
 * answer's Date); undefined when it is neither.
 *
 * @example
 * retryAfterSeconds('5') // 5
 * retryAfterSeconds('Fri, 27 Nov 2026 12:00:05 GMT', 'Fri, 27 Nov 2026 12:00:00 GMT') // 5
 */
export function retryAfterSeconds(value: string | undefined, date?: string): number | undefined {
  const v = value?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  const now = date === undefined ? Number.NaN : Date.parse(date);
  return Math.max(0, Math.ceil((at - (Number.isNaN(now) ? Date.now() : now)) / 1000));
}

/** WebSocket handshake errors: HTTP responses to the upgrade, not events. */
export const SocketHandshakeErrors = defineErrors({
  SESSION_NOT_FOUND: { status: 404, text: 'session not found', documented: true },
  AUTH_FAILED: { status: 401, text: 'authentication failed', documented: true },
  CONNECTION_LIMIT: { status: 429, text: 'connection limit exceeded for session', documented: true },
  INVALID_PARAMS: { status: 400, text: 'invalid connection parameters', documented: true },
});

/**
 * Invalid client events, sent as EVENT_TYPE_SYSTEM_MESSAGE at SYSTEM_MESSAGE_LEVEL_ERROR; the socket stays open.
 * `EVENT_NOT_ALLOWED.text` is a prefix: the full text is built by `eventTypeNotAllowed`.
 */
export const SocketEventErrors = defineErrors({
  UNKNOWN_OR_INVALID: { text: 'Unknown event type or invalid message format', documented: true },
  EVENT_NOT_ALLOWED: { text: 'Event type not allowed: ', documented: true },
});

/**
 * The exact text for a server-only type sent by a client.
 *
 * @example
 * eventTypeNotAllowed('EVENT_TYPE_SERVICE_AGENT_JOINED') // 'Event type not allowed: EVENT_TYPE_SERVICE_AGENT_JOINED'
 */
export function eventTypeNotAllowed(type: string): string {
  return `${SocketEventErrors.EVENT_NOT_ALLOWED.text}${type}`;
}

/** Session-state system messages (level SYSTEM_MESSAGE_LEVEL_ERROR), texts exactly as documented. */
export const SessionStateMessages = defineErrors({
  SESSION_NOT_FOUND: { text: 'Error: Session not found', documented: true },
  UNABLE_TO_RETRIEVE_SESSION: { text: 'Error: Unable to retrieve session', documented: true },
  CONNECTOR_NOT_FOUND: { text: 'Error: Connector not found', documented: true },
  CONVERSATION_NOT_FOUND: { text: 'Error: Conversation not found', documented: true },
  CONVERSATION_ID_NOT_IN_SESSION: { text: 'Error: Conversation ID not found in session', documented: true },
});

/** Live-agent handoff system messages. The "could not connect to an agent" text is a reference-target choice. */
export const HandoffMessages = defineErrors({
  AGENT_CONNECT_FAILED: { text: 'Sorry, we could not connect you to an agent.', documented: false },
  FORWARD_FAILED: { text: 'Failed to forward message to live agent', documented: true },
  HANDOFF_NOT_INITIATED: { text: 'Sorry, handoff could not be initiated.', documented: true },
});

/** Agent-side system messages (server issue). The document names the situations only; every text is a reference-target choice. */
export const AgentSystemMessages = defineErrors({
  HIGH_LOAD: { text: 'The agent is under high load. Please try again in a few seconds.', documented: false },
  START_FAILED: { text: 'Unable to start a conversation. Please request the agent again or start a new session.', documented: false },
  RESPONSE_FAILED: { text: 'The agent had trouble responding. Please send your message again.', documented: false },
  STREAMING_FAILED: { text: 'An error occurred during streaming. Please send your message again.', documented: false },
});

/**
 * System message texts the reference target follows with SESSION_END. Reference-target choice: the document says
 * only that "some errors are followed by it".
 */
export const SESSION_ENDING_TEXTS: readonly string[] = [SessionStateMessages.SESSION_NOT_FOUND.text];
