import type { RawData, WebSocket } from 'ws';
import {
  AgentSystemMessages,
  type ClientEventType,
  type CustomMetadata,
  CustomMetadata as CustomMetadataSchema,
  classifyClientEventType,
  EventEnvelope,
  HandoffMessages,
  SessionStateMessages,
  SocketEventErrors,
  TypedClientEvent,
} from '../../contract/messaging/shapes.js';
import { parseLimitedJson } from '../limits.js';
import { LIVE_AGENT_NAME } from './agent.js';
import type { Connector } from './connectors.js';
import { broadcast, endSession, replyError, sendTo } from './outbox.js';
import type { MessagingSession } from './sessions.js';
import type { MessagingState } from './state.js';
import { agentTurn, liveAgentTurn } from './turns.js';

/** What a handler of one valid client event works with. */
interface EventContext {
  readonly state: MessagingState;
  readonly ws: WebSocket;
  readonly session: MessagingSession;
  readonly connector: Connector;
  readonly event: TypedClientEvent;
  readonly custom: CustomMetadata | undefined;
}

/** Opens the session's conversation and tells every socket the agent joined. */
export function joinAgent(state: MessagingState, session: MessagingSession, custom?: CustomMetadata): void {
  const conversationId = `conv-msg-${state.ctx.rng.hex(16)}`;
  state.conversations.add(conversationId);
  session.conversationId = conversationId;
  session.agentJoined = true;
  broadcast(state, session, state.event('EVENT_TYPE_SERVICE_AGENT_JOINED', {}, custom));
}

/**
 * A message that needs the conversation: without one the client must send the join request first; a conversation
 * lost on the agent side is reported too. Returns whether the conversation is there.
 */
function conversationReady(c: EventContext): boolean {
  const { session, state } = c;
  if (!session.conversationId) replyError(state, c.ws, SessionStateMessages.CONVERSATION_ID_NOT_IN_SESSION.text, c.custom);
  else if (!state.conversations.has(session.conversationId)) replyError(state, c.ws, SessionStateMessages.CONVERSATION_NOT_FOUND.text, c.custom);
  else return true;
  return false;
}

function requestJoin(c: EventContext): void {
  const { state, session } = c;
  const payload = (c.event as { payload?: unknown }).payload;
  if (state.ctx.defects.has('messaging-join-empty-payload-refused') && isEmptyObject(payload)) {
    replyError(state, c.ws, SocketEventErrors.UNKNOWN_OR_INVALID.text, c.custom);
    return;
  }
  if (state.sessions.takeFault(session, 'start-failed')) replyError(state, c.ws, AgentSystemMessages.START_FAILED.text, c.custom);
  // Already joined: confirm to the asking socket only, so the history keeps exactly one join.
  else if (session.agentJoined && session.conversationId && state.conversations.has(session.conversationId)) {
    sendTo(c.ws, state.event('EVENT_TYPE_SERVICE_AGENT_JOINED', {}, c.custom));
  } else joinAgent(state, session, c.custom);
}

function userMessage(c: EventContext): void {
  if (c.event.type !== 'EVENT_TYPE_USER_MESSAGE' || !conversationReady(c)) return;
  const turn = {
    state: c.state,
    ws: c.ws,
    session: c.session,
    text: c.event.payload.text,
    clientMessageId: c.event.payload.client_message_id,
    custom: c.custom,
  };
  (c.session.liveAgent ? liveAgentTurn : agentTurn)(turn);
}

function requestLiveAgent(c: EventContext): void {
  const { state, session } = c;
  if (!conversationReady(c)) return;
  const refusal = !c.connector.handoff
    ? HandoffMessages.HANDOFF_NOT_INITIATED
    : state.sessions.takeFault(session, 'no-live-agent')
      ? HandoffMessages.AGENT_CONNECT_FAILED
      : undefined;
  if (refusal) {
    replyError(state, c.ws, refusal.text, c.custom);
    return;
  }
  const joined = state.event('EVENT_TYPE_LIVE_AGENT_JOINED', { display_name: LIVE_AGENT_NAME }, c.custom);
  if (session.liveAgent) sendTo(c.ws, joined);
  else {
    session.liveAgent = true;
    broadcast(state, session, joined);
  }
}

/** `{}`: what a payload check by truthiness of its keys takes for a missing payload. */
const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length === 0;

/** Typing indicators and delivery receipts from the client are accepted and need no answer. */
const accept = () => {};

/** One handler per client event type: the whole dispatch. */
const HANDLERS: Record<ClientEventType, (c: EventContext) => void> = {
  EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN: requestJoin,
  EVENT_TYPE_USER_MESSAGE: userMessage,
  EVENT_TYPE_TYPING_INDICATOR: accept,
  EVENT_TYPE_DELIVERY_RECEIPT: accept,
  EVENT_TYPE_REQUEST_LIVE_AGENT: requestLiveAgent,
};

/** The client's metadata.custom, when the frame parsed and carries an object there. */
function customOf(frame: unknown): CustomMetadata | undefined {
  const metadata = (frame as { metadata?: unknown } | null)?.metadata;
  const custom = (metadata as { custom?: unknown } | null | undefined)?.custom;
  const parsed = CustomMetadataSchema.safeParse(custom);
  return parsed.success ? parsed.data : undefined;
}

function parseFrame(data: RawData, isBinary: boolean): unknown {
  if (isBinary) return undefined;
  try {
    return parseLimitedJson(data.toString());
  } catch {
    return undefined;
  }
}

/**
 * Validates one frame the way the error catalogue says: unparseable, malformed or of an unknown type:
 * `Unknown event type or invalid message format`; a server-only type: `Event type not allowed: <type>`.
 * Returns the typed event, or undefined when the frame was answered with an error.
 */
function validate(state: MessagingState, ws: WebSocket, frame: unknown, custom: CustomMetadata | undefined): TypedClientEvent | undefined {
  const unknown = () => replyError(state, ws, SocketEventErrors.UNKNOWN_OR_INVALID.text, custom);
  if (frame === undefined) {
    unknown();
    if (state.ctx.defects.has('messaging-bad-json-closes')) ws.close(1003, 'invalid message');
    return undefined;
  }
  const envelope = EventEnvelope.safeParse(frame);
  if (!envelope.success) return void unknown();
  const verdict = classifyClientEventType(envelope.data.type);
  if (verdict === 'not-allowed') {
    if (envelope.data.type === 'SESSION_END' && state.ctx.defects.has('messaging-client-session-end-closes')) {
      ws.close(1000, 'session ended');
      return undefined;
    }
    const text = state.ctx.defects.has('messaging-not-allowed-text-changed')
      ? `Event type not permitted: ${envelope.data.type}`
      : `${SocketEventErrors.EVENT_NOT_ALLOWED.text}${envelope.data.type}`;
    return void replyError(state, ws, text, state.ctx.defects.has('messaging-error-custom-dropped') ? undefined : custom);
  }
  if (verdict === 'unknown') return void unknown();
  const typed = TypedClientEvent.safeParse(frame);
  return typed.success ? typed.data : void unknown();
}

/**
 * Handles one frame from a client socket: rate limit (over it, the frame is dropped), validation, the session
 * checks behind the session-state messages, then the handler of its type.
 */
export function onClientFrame(state: MessagingState, ws: WebSocket, sessionId: string, data: RawData, isBinary: boolean): void {
  const known = state.sessions.get(sessionId);
  const owner = known && state.connectors.byId(known.connectorId);
  if (known && owner && !state.limiter.hit(`socket:${sessionId}`, state.rateLimitsOf(owner).socket).ok) {
    known.dropped++;
    return;
  }
  const frame = parseFrame(data, isBinary);
  const custom = customOf(frame);
  const event = validate(state, ws, frame, custom);
  if (!event) return;
  const session = state.sessions.get(sessionId);
  if (!session) {
    endSession(state, sessionId, ws, custom);
    return;
  }
  state.sessions.touch(session);
  const connector = state.connectors.byId(session.connectorId);
  if (state.sessions.takeFault(session, 'retrieve-session')) replyError(state, ws, SessionStateMessages.UNABLE_TO_RETRIEVE_SESSION.text, custom);
  else if (!connector) replyError(state, ws, SessionStateMessages.CONNECTOR_NOT_FOUND.text, custom);
  else HANDLERS[event.type]({ state, ws, session, connector, event, custom });
}
