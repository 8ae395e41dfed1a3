import { WebSocket } from 'ws';
import { type CustomMetadata, type HistoryEvent, type ServerEvent, SessionStateMessages, type SystemMessageLevel } from '../../contract/messaging/shapes.js';
import type { MessagingSession } from './sessions.js';
import type { MessagingState } from './state.js';

/** Sends one event to one socket, if it is still open. */
export function sendTo(ws: WebSocket, event: ServerEvent): void {
  sendFrame(ws, JSON.stringify(event));
}

/** Sends a frame already serialized (a broadcast serializes once for all sockets). */
function sendFrame(ws: WebSocket, frame: string): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(frame);
}

/** A session event: kept in the history (so a reconnect replays it) and sent to every socket of the session. */
export function broadcast(state: MessagingState, session: MessagingSession, event: HistoryEvent): void {
  const frame = session.history.push(event);
  for (const ws of state.socketsOf(session.id)) sendFrame(ws, frame);
}

/** An EVENT_TYPE_SYSTEM_MESSAGE. */
export function systemMessage(state: MessagingState, level: SystemMessageLevel, text: string, custom?: CustomMetadata) {
  return state.event('EVENT_TYPE_SYSTEM_MESSAGE', { level, text }, custom);
}

/** Answers one client event with an error on that socket only; errors are not session history. */
export function replyError(state: MessagingState, ws: WebSocket, text: string, custom?: CustomMetadata): void {
  sendTo(ws, systemMessage(state, 'SYSTEM_MESSAGE_LEVEL_ERROR', text, custom));
}

/**
 * Ends a session whose store entry is gone: the socket that asked gets `Error: Session not found` and SESSION_END,
 * every other socket of the session SESSION_END, and all of them are closed.
 */
export function endSession(state: MessagingState, sessionId: string, requester: WebSocket | undefined, custom?: CustomMetadata): void {
  const sockets = [...state.socketsOf(sessionId)];
  if (requester) replyError(state, requester, SessionStateMessages.SESSION_NOT_FOUND.text, custom);
  const end = state.event('SESSION_END', { reason: 'error' }, custom);
  for (const ws of sockets) {
    sendTo(ws, end);
    ws.close(1000, 'session ended');
  }
  state.sockets.delete(sessionId);
  state.sessions.delete(sessionId);
}
