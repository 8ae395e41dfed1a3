import type { WebSocket } from 'ws';
import { AgentSystemMessages, type CustomMetadata, HandoffMessages } from '../../contract/messaging/shapes.js';
import { agentReply, chunkText, LIVE_AGENT_NAME, liveAgentReply } from './agent.js';
import { broadcast, replyError, systemMessage } from './outbox.js';
import type { MessagingSession } from './sessions.js';
import type { MessagingState } from './state.js';

/** One user message on its way to an agent. */
export interface UserTurn {
  readonly state: MessagingState;
  readonly ws: WebSocket;
  readonly session: MessagingSession;
  readonly text: string;
  readonly clientMessageId: string | undefined;
  readonly custom: CustomMetadata | undefined;
}

/** Whether the session is still the live one (not removed or expired since the turn began). */
const alive = (t: UserTurn) => t.state.sessions.get(t.session.id) === t.session;

function typing(t: UserTurn, isTyping: boolean, participant: 'agent' | 'live_agent'): void {
  broadcast(t.state, t.session, t.state.event('EVENT_TYPE_TYPING_INDICATOR', { is_typing: isTyping, participant }, t.custom));
}

function receipt(t: UserTurn): void {
  const message_id = t.clientMessageId ?? `msg_${t.state.ctx.rng.hex(16)}`;
  broadcast(t.state, t.session, t.state.event('EVENT_TYPE_DELIVERY_RECEIPT', { message_id, status: 'delivered' }, t.custom));
}

/**
 * Sends `chunks` one by one, `chunk_delay_ms` apart (or a draw of `messaging.chunk` each, under a latency spec that names
 * it); a streaming fault breaks off after the first chunk.
 */
function streamChunks(t: UserTurn, messageId: string, chunks: readonly string[], index: number, fail: boolean): void {
  if (!alive(t)) return;
  const { state, session } = t;
  if (fail && index === 1) {
    broadcast(state, session, systemMessage(state, 'SYSTEM_MESSAGE_LEVEL_ERROR', AgentSystemMessages.STREAMING_FAILED.text, t.custom));
    typing(t, false, 'agent');
    return;
  }
  const final = index === chunks.length - 1;
  broadcast(state, session, state.event('EVENT_TYPE_AGENT_MESSAGE_CHUNK', { message_id: messageId, index, text: chunks[index] ?? '', final }, t.custom));
  if (final) typing(t, false, 'agent');
  else state.later(state.ctx.latency.drawOr('messaging.chunk', state.config.chunk_delay_ms), () => streamChunks(t, messageId, chunks, index + 1, fail));
}

/**
 * The virtual agent answers: a delivery receipt and typing indicator at once, then after a short pause (`reply_delay_ms`,
 * or the agent's think time, a draw of `messaging.reply`, under a latency spec that names it) either one complete
 * EVENT_TYPE_AGENT_MESSAGE or (streaming sessions) EVENT_TYPE_AGENT_MESSAGE_CHUNK events, then typing off.
 */
export function agentTurn(t: UserTurn): void {
  const { state, session } = t;
  const refused = state.sessions.takeFault(session, 'high-load', 'trouble-responding');
  if (refused) {
    replyError(state, t.ws, refused === 'high-load' ? AgentSystemMessages.HIGH_LOAD.text : AgentSystemMessages.RESPONSE_FAILED.text, t.custom);
    return;
  }
  receipt(t);
  typing(t, true, 'agent');
  const reply = agentReply(t.text);
  const messageId = `msg_${state.ctx.rng.hex(16)}`;
  const streaming = session.streaming && !state.ctx.defects.has('messaging-streaming-ignored');
  const fail = streaming && state.sessions.takeFault(session, 'streaming-error') !== undefined;
  state.later(state.ctx.latency.drawOr('messaging.reply', state.config.reply_delay_ms), () => {
    if (!alive(t)) return;
    if (streaming) streamChunks(t, messageId, chunkText(reply), 0, fail);
    else {
      broadcast(state, session, state.event('EVENT_TYPE_AGENT_MESSAGE', { message_id: messageId, text: reply }, t.custom));
      typing(t, false, 'agent');
    }
  });
}

/** During a handoff the user's messages go to the live agent, who answers after a short pause. */
export function liveAgentTurn(t: UserTurn): void {
  const { state, session } = t;
  if (state.sessions.takeFault(session, 'forward-failed')) {
    replyError(state, t.ws, HandoffMessages.FORWARD_FAILED.text, t.custom);
    return;
  }
  receipt(t);
  state.later(state.config.reply_delay_ms, () => {
    if (!alive(t)) return;
    const payload = { message_id: `msg_${state.ctx.rng.hex(16)}`, text: liveAgentReply(t.text), display_name: LIVE_AGENT_NAME };
    broadcast(state, session, state.event('EVENT_TYPE_LIVE_AGENT_MESSAGE', payload, t.custom));
  });
}

/**
 * The live agent of a session writes on its own (not in answer to the user): the message goes to every socket of the
 * session and into its history, as every live-agent message does. False when no live agent has joined.
 */
export function liveAgentSays(state: MessagingState, session: MessagingSession, text: string): boolean {
  if (!session.liveAgent) return false;
  const payload = { message_id: `msg_${state.ctx.rng.hex(16)}`, text, display_name: LIVE_AGENT_NAME };
  broadcast(state, session, state.event('EVENT_TYPE_LIVE_AGENT_MESSAGE', payload, undefined));
  return true;
}
