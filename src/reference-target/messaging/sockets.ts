import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { MAX_SOCKETS_PER_SESSION, MessagingPaths, parseCursor, SocketHandshakeErrors, WsQuery } from '../../contract/messaging/shapes.js';
import type { ErrorEntry } from '../../contract/rule.js';
import type { Admit } from '../capacity.js';
import { joinAgent, onClientFrame } from './client-events.js';
import { sendTo } from './outbox.js';
import type { MessagingSession } from './sessions.js';
import type { MessagingState } from './state.js';

/** The outcome of checking a handshake: the session and replay start, or the documented HTTP error. */
export type HandshakeVerdict =
  | { readonly ok: true; readonly session: MessagingSession; readonly from: number }
  | { readonly ok: false; readonly error: ErrorEntry };

const refuse = (error: ErrorEntry): HandshakeVerdict => ({ ok: false, error });

/** A defect's wait between the socket-limit check and the socket's registration: long enough for a burst to interleave. */

/**
 * Checks the query of a `/ws` handshake in this order: parameters (400), token valid and unexpired (401), session
 * known and unexpired (404), token of the session's connector (401), free socket slot (429).
 */
export function checkHandshake(state: MessagingState, query: URLSearchParams): HandshakeVerdict {
  const { defects } = state.ctx;
  const q = WsQuery.safeParse({
    access_token: query.get('access_token') ?? undefined,
    session_id: query.get('session_id') ?? undefined,
    cursor: query.get('cursor') ?? undefined,
  });
  if (!q.success) return refuse(SocketHandshakeErrors.INVALID_PARAMS);
  const { access_token, session_id, cursor } = q.data;
  if (cursor !== undefined && defects.has('messaging-invalid-cursor-refused') && !/^seq:\d+$/.test(cursor)) return refuse(SocketHandshakeErrors.INVALID_PARAMS);
  const token = state.verifyToken(access_token, { ignoreExpiry: defects.has('messaging-ws-expired-token-accepted') });
  if (!token.ok || !state.connectors.byId(token.claims.sub)) return refuse(SocketHandshakeErrors.AUTH_FAILED);
  const session = state.sessions.get(session_id);
  if (!session) return refuse(SocketHandshakeErrors.SESSION_NOT_FOUND);
  if (token.claims.sub !== session.connectorId && !defects.has('messaging-ws-any-connector-token')) return refuse(SocketHandshakeErrors.AUTH_FAILED);
  const cap = MAX_SOCKETS_PER_SESSION + (defects.has('messaging-eleventh-socket-accepted') ? 1 : 0);
  const taken = defects.has('messaging-socket-slot-kept')
    ? (state.socketsOpened.get(session.id) ?? 0)
    : defects.has('messaging-socket-limit-races')
      ? replicaCount(state, session.id)
      : state.socketsOf(session.id).size;
  if (taken >= cap) return refuse(SocketHandshakeErrors.CONNECTION_LIMIT);
  const n = parseCursor(cursor);
  return { ok: true, session, from: defects.has('messaging-cursor-off-by-one') ? Math.max(0, n - 1) : n };
}

/** How long the replica a defect counts sockets from lags the sessions: a burst arrives well within it, on a busy machine too. */
const REPLICA_LAG_MS = 1_000;
const replicas = new WeakMap<MessagingState, Map<string, { count: number; at: number }>>();

/** The session's open sockets as a replica refreshed at most once a lag saw them (defect messaging-socket-limit-races). */
function replicaCount(state: MessagingState, sessionId: string): number {
  const seen = replicas.get(state) ?? new Map<string, { count: number; at: number }>();
  replicas.set(state, seen);
  const now = performance.now();
  const last = seen.get(sessionId);
  if (last && now - last.at < REPLICA_LAG_MS) return last.count;
  const count = state.socketsOf(sessionId).size;
  seen.set(sessionId, { count, at: now });
  return count;
}

/** The documented error as an HTTP response on the raw upgrade socket: status line, JSON body `{ error }`. */
function writeHttpError(socket: Duplex, error: ErrorEntry): void {
  const status = error.status ?? 500;
  const body = JSON.stringify({ error: error.text });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** An opened socket: replay the history from the cursor, then join the session's live events. */
function attach(state: MessagingState, ws: WebSocket, session: MessagingSession, from: number, admit: Admit | undefined): void {
  const { defects } = state.ctx;
  const sockets = state.socketsOf(session.id);
  state.sessions.touch(session);
  if (defects.has('messaging-join-lost-on-reconnect') && sockets.size === 0 && session.history.length > 0) {
    session.agentJoined = false;
    session.conversationId = undefined;
  }
  // Batch and registration in one synchronous step, so no broadcast falls between them (none lost, none twice).
  sendTo(ws, state.event('EVENT_TYPE_EVENT_BATCH', { events: session.history.from(from) }));
  sockets.add(ws);
  if (defects.has('messaging-socket-slot-kept')) state.socketsOpened.set(session.id, (state.socketsOpened.get(session.id) ?? 0) + 1);
  // At a known capacity each frame waits its turn; the queue is first come first served, so frames keep their order. A
  // frame whose socket closed while it waited (the target shutting down, say) is dropped, as a gone server would.
  const handle = (data: RawData, isBinary: boolean) => onClientFrame(state, ws, session.id, data, isBinary);
  ws.on('message', (data, isBinary) => (admit ? void admit().then(() => ws.readyState === ws.OPEN && handle(data, isBinary)) : handle(data, isBinary)));
  ws.on('error', () => ws.terminate());
  ws.on('close', (code) => {
    sockets.delete(ws);
    // An empty set is made again on demand; kept, one would stay behind for every session whose last socket closed.
    if (sockets.size === 0 && state.sockets.get(session.id) === sockets) state.sockets.delete(session.id);
    // No socket is left to send to: the history waits, deflated, for a resume or the idle expiry.
    if (sockets.size === 0) session.history.pack();
    // 1006: the peer vanished without a close frame, which the document says is not a session end.
    if (code === 1006 && defects.has('messaging-drop-ends-session') && state.sessions.delete(session.id)) {
      const end = state.event('SESSION_END', { reason: 'closed' });
      for (const other of sockets) {
        sendTo(other, end);
        other.close(1000, 'session ended');
      }
    }
  });
  if (defects.has('messaging-agent-auto-joins') && !session.agentJoined) joinAgent(state, session);
}

/**
 * The `/ws` endpoint: takes over HTTP upgrades on the host's server. Handshake failures are answered as plain HTTP
 * errors (the document says they are not events); other paths are left to other listeners, or 404 when there are none.
 * With `admit` (a known capacity) every handshake, refused or not, and every client frame waits for the queue first.
 */
export function attachWebSocket(state: MessagingState, server: Server, admit?: Admit): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MessagingPaths.ws) {
      if (server.listenerCount('upgrade') === 1) writeHttpError(socket, { status: 404, text: 'not found', documented: false });
      return;
    }
    // The check and the socket's registration (attach) run in one synchronous step, so a burst of handshakes on one
    // session cannot pass its socket limit together; one defect counts from a replica that lags.
    const handshake = async () => {
      const verdict = checkHandshake(state, url.searchParams);
      if (!verdict.ok) return writeHttpError(socket, verdict.error);
      wss.handleUpgrade(req, socket, head, (ws) => attach(state, ws, verdict.session, verdict.from, admit));
    };
    if (admit) void admit().then(handshake);
    else void handshake();
  });
  return wss;
}
