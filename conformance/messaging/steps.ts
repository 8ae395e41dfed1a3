import type { Response } from '../../src/clients/exchange.js';
import type { Connection, Handshake, MessagingSocket, WireEvent } from '../../src/clients/messaging.js';
import { MessagingControl } from '../../src/clients/messaging-control.js';
import type { EventType } from '../../src/contract/messaging/shapes.js';
import type { ErrorEntry } from '../../src/contract/rule.js';
import type { CaseApi } from '../../src/suite/case.js';

// Shared steps of the messaging cases: open a session's socket, wait for events, check documented error texts.

/** The documented level of error system messages. */
export const ERROR_LEVEL = 'SYSTEM_MESSAGE_LEVEL_ERROR';

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Matches events of one type. */
export const ofType =
  (type: EventType | string) =>
  (e: WireEvent): boolean =>
    e.type === type;

/** The text of a system message (the field name `text` is the reference target's; `message` is tried too). */
export function systemText(e: WireEvent): string | undefined {
  const p = record(e.payload);
  const t = p?.text ?? p?.message;
  return typeof t === 'string' ? t : undefined;
}

/** The level of a system message. */
export const levelOf = (e: WireEvent): unknown => record(e.payload)?.level;

/** Matches EVENT_TYPE_SYSTEM_MESSAGE, optionally with exactly this text. */
export const isSystem =
  (text?: string) =>
  (e: WireEvent): boolean =>
    e.type === 'EVENT_TYPE_SYSTEM_MESSAGE' && (text === undefined || systemText(e) === text);

/** The custom metadata a server event echoes. */
export const customOf = (e: WireEvent): unknown => record(e.metadata)?.custom;

/** The events an EVENT_TYPE_EVENT_BATCH replays (reference shape `payload.events`). */
export function batchEvents(batch: WireEvent): WireEvent[] {
  const events = record(batch.payload)?.events;
  return Array.isArray(events) ? (events as WireEvent[]) : [];
}

/** Event ids, for comparing replays. */
export const idsOf = (events: readonly WireEvent[]): unknown[] => events.map((e) => e.id);

/** Closes the case's sockets when it ends, whatever the outcome. Call once at the start of a case that opens any. */
export function closeSocketsAfter(api: CaseApi): void {
  api.onFinished(() => api.t.messaging.closeAll());
}

/** The reference target's messaging control endpoints (only for cases declared with `needs: ['control']`). */
export const control = (api: CaseApi) => new MessagingControl(api.t.control);

/** An open socket whose history batch has arrived. */
export interface Opened {
  readonly h: Handshake;
  readonly socket: MessagingSocket;
  readonly batch: WireEvent;
}

/** Opens a socket on a handshake and waits for its history batch. */
export async function openOn(api: CaseApi, h: Handshake, cursor?: string): Promise<Opened> {
  const socket = await api.t.messaging.open(h, cursor);
  const { event } = await socket.waitFor(ofType('EVENT_TYPE_EVENT_BATCH'), { what: 'EVENT_TYPE_EVENT_BATCH' });
  return { h, socket, batch: event };
}

/**
 * Access token, session (with `sessionBody`), socket, history batch; with `join`, also the join request and the
 * agent's EVENT_TYPE_SERVICE_AGENT_JOINED. Sockets close when the case ends.
 */
export async function opened(api: CaseApi, o: { sessionBody?: unknown; join?: boolean; connectorToken?: string; host?: string } = {}): Promise<Opened> {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake(o.sessionBody ?? {}, {
    ...(o.connectorToken ? { connectorToken: o.connectorToken } : {}),
    ...(o.host ? { host: o.host } : {}),
  });
  const out = await openOn(api, h);
  // Settle first: anything the target sends on its own after the batch arrives before the marker's answer.
  await out.socket.barrier();
  if (o.join) await join(out.socket);
  return out;
}

/**
 * Waits (bounded, two seconds) until the target counts at most `n` open sockets on the session, so a close the
 * client has seen is also one the target has seen. Needs the control surface; without it there is nothing to ask.
 */
export async function socketsSettled(api: CaseApi, sessionId: string, n: number): Promise<void> {
  if (!api.t.capabilities.has('control')) return;
  const deadline = performance.now() + 2000;
  while (performance.now() < deadline) {
    const s = await control(api)
      .session(sessionId)
      .catch(() => undefined);
    if (!s || s.sockets <= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Sends the join request with its documented empty payload and waits for the agent to join. An error system message
 * in its place is the target's answer to the join (it answers a socket's frames in order): the case fails on it at
 * once, naming it, instead of waiting out the time for an agent that will not come.
 */
export async function join(socket: MessagingSocket): Promise<WireEvent> {
  const from = socket.events.length;
  socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
  const joined = ofType('EVENT_TYPE_SERVICE_AGENT_JOINED');
  const { event } = await socket.waitFor((e) => joined(e) || errorsIn([e]).length > 0, { what: 'EVENT_TYPE_SERVICE_AGENT_JOINED', from });
  if (!joined(event))
    throw new Error(`the join request was answered with an error system message instead of EVENT_TYPE_SERVICE_AGENT_JOINED: "${systemText(event)}"`);
  return event;
}

/** Finds a documented text as a string value anywhere in a JSON body, or as the whole body. */
function bodyHasText(json: unknown, text: string, raw: string): boolean {
  if (raw.trim() === text) return true;
  const seen = (v: unknown): boolean => v === text || (typeof v === 'object' && v !== null && Object.values(v).some(seen));
  return seen(json);
}

/** Checks a documented HTTP error: exact status and exact text. */
export function expectHttpError({ check }: CaseApi, res: Response | Connection, error: ErrorEntry, what: string): void {
  if ('opened' in res && res.opened) {
    check.that(false, `${what}: HTTP ${error.status} "${error.text}"`, 'the WebSocket opened (101)');
    return;
  }
  const r = res as Response | Exclude<Connection, { opened: true }>;
  check.that(r.status === error.status, `${what}: status ${error.status}`, `${r.status} ${r.text.slice(0, 200)}`);
  check.that(bodyHasText(r.json, error.text, r.text), `${what}: the text "${error.text}"`, `${r.status} ${r.text.slice(0, 200)}`);
}

/** The error system messages among `events`. */
export const errorsIn = (events: readonly WireEvent[]) => events.filter((e) => isSystem()(e) && levelOf(e) === ERROR_LEVEL);

/** The events from index `from` up to (not including) the answer to a barrier sent now. */
export async function untilBarrier(socket: MessagingSocket, from: number): Promise<WireEvent[]> {
  const end = await socket.barrier();
  return socket.events.slice(from, end);
}

/**
 * A copy of the token with its expiry pushed years ahead but the original signature kept: what a client forging a
 * longer life would send.
 *
 * @example
 * tampered('eyJh.eyJz.c2ln') // 'eyJh.<forged claims>.c2ln'
 */
export function tampered(jwt: string): string {
  const [h, p, s] = jwt.split('.') as [string, string, string];
  let claims: Record<string, unknown> = {};
  try {
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    // an opaque payload: forge a fresh one
  }
  const forged = Buffer.from(JSON.stringify({ ...claims, exp: 4102444800 })).toString('base64url');
  return `${h}.${forged}.${s}`;
}
