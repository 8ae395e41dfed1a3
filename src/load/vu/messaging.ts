// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import http from 'k6/http';
import { clearTimeout, setTimeout } from 'k6/timers';
import { type ErrorEvent, type MessageEvent, WebSocket } from 'k6/websockets';
import type { ClientEventType } from '../../contract/messaging/shapes.js';
import {
  AccessTokenHeaders,
  bearer,
  formatCursor,
  JSON_CONTENT_TYPE,
  MessagingPaths,
  REFERENCE_MESSAGING_HOST,
  SessionHeaders,
} from '../../contract/messaging/wire.js';
import type { LoadConfig } from '../config.js';
import { requestTimeout, secret } from './config.js';
import { sleep } from './wait.js';

/**
 * One server event as a socket received it; `at` is when k6 read it off the wire (ms since the epoch), `custom` the
 * `metadata.custom` the target echoed (the document says it echoes the client's on every answer, errors included).
 */
export interface WireEvent {
  readonly id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly custom: Record<string, unknown> | undefined;
  readonly at: number;
}

/** The key of `metadata.custom` that ties server events to the client event they answer. */
export const TURN_KEY = 'dialtone_turn';

/** Whether an event answers the client event sent with `turn` (its echoed `metadata.custom`). */
export const answers = (e: WireEvent, turn: string) => e.custom?.[TURN_KEY] === turn;

/**
 * Polls `cond` every 10 ms until it holds or `timeoutMs` passed; resolves whether it held. Every wait of a messaging
 * iteration is bounded like this, so a silent target costs an iteration its time limit, never a hang.
 */
export async function until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() >= end) return false;
    await sleep(10);
  }
  return true;
}

/** Refresh an access token this long before it expires. */
const TOKEN_MARGIN_MS = 60_000;

/**
 * The HTTP half of a messaging virtual user: one access token per VU, reused until a minute before it expires (as a
 * real client does), and one session per iteration. Requests are tagged by operation, never by URL.
 */
export class MessagingVu {
  readonly #base: string;
  readonly #ws: string;
  readonly #host: string;
  readonly #connectorToken: string;
  readonly #timeouts: { readonly token: string; readonly session: string };
  #token: { readonly value: string; readonly refreshAt: number } | undefined;

  constructor(cfg: LoadConfig) {
    this.#timeouts = { token: requestTimeout(cfg, 'messaging.access_token'), session: requestTimeout(cfg, 'messaging.session') };
    const base = (cfg.target.hosts.messaging_url ?? '').replace(/\/$/, '');
    if (!base) throw new Error('the profile has no hosts.messaging_url: the messaging scenarios need one');
    this.#base = base;
    this.#ws = base.replace(/^http/, 'ws');
    this.#host = cfg.target.messaging_host ?? REFERENCE_MESSAGING_HOST;
    this.#connectorToken = secret(cfg, 'messaging_connector_token');
  }

  /** The VU's access token, asked for on first use and again shortly before it expires; undefined when refused. */
  async accessToken(): Promise<string | undefined> {
    if (this.#token && Date.now() < this.#token.refreshAt) return this.#token.value;
    const op = 'messaging.access_token';
    const res = await http.asyncRequest('POST', `${this.#base}${MessagingPaths.accessToken}`, '{}', {
      headers: { [AccessTokenHeaders.token]: this.#connectorToken, [AccessTokenHeaders.host]: this.#host, [AccessTokenHeaders.contentType]: JSON_CONTENT_TYPE },
      tags: { op, name: op },
      timeout: this.#timeouts.token,
    });
    const value = res.status === 200 ? res.json('access_token') : undefined;
    const expiresIn = res.status === 200 ? res.json('expires_in') : undefined;
    if (typeof value !== 'string' || typeof expiresIn !== 'number') {
      this.#token = undefined;
      return undefined;
    }
    this.#token = { value, refreshAt: Date.now() + Math.max(0, expiresIn * 1000 - TOKEN_MARGIN_MS) };
    return value;
  }

  /** A new session; undefined when refused. */
  async session(accessToken: string, streaming: boolean): Promise<string | undefined> {
    const op = 'messaging.session';
    const res = await http.asyncRequest('POST', `${this.#base}${MessagingPaths.sessions}`, JSON.stringify({ streaming_enabled: streaming, platform: 'web' }), {
      headers: { [SessionHeaders.authorization]: bearer(accessToken), [SessionHeaders.contentType]: JSON_CONTENT_TYPE },
      tags: { op, name: op },
      timeout: this.#timeouts.session,
    });
    const id = res.status === 200 ? res.json('session_id') : undefined;
    return typeof id === 'string' && id !== '' ? id : undefined;
  }

  /** The `/ws` URL of a session, with `cursor=seq:<n>` when resuming. */
  socketUrl(accessToken: string, sessionId: string, cursor?: number): string {
    const q = `access_token=${encodeURIComponent(accessToken)}&session_id=${encodeURIComponent(sessionId)}`;
    return `${this.#ws}${MessagingPaths.ws}?${q}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(formatCursor(cursor))}`}`;
  }
}

/**
 * Where a socket stands. `refused`: an error event came before any open, which is how k6/websockets shows a handshake
 * the server answered with an HTTP error (`websocket: bad handshake`; the status itself only reaches the `status` tag
 * of the built-in `ws_sessions` and `ws_connecting` metrics).
 */
export type SocketState = 'connecting' | 'open' | 'refused' | 'closed';

/**
 * One messaging socket with every event it received and bounded waits on them. `history` holds the ids of the
 * session's history as this socket saw it: the batch's events, then every live event after it.
 */
export class EventSocket {
  readonly ws: WebSocket;
  readonly startedAt = Date.now();
  state: SocketState = 'connecting';
  /** The error event's text, if one came. */
  error: string | undefined;
  /** When the history batch arrived, and how many events it replayed. */
  batchAt: number | undefined;
  batchSize = 0;
  readonly events: WireEvent[] = [];
  readonly history: string[] = [];
  readonly #pending = new Set<() => boolean>();

  /** `op` names the socket in k6's metrics (`op` and `name` tags), so no id of the URL reaches a tag. */
  constructor(url: string, op: string) {
    this.ws = new WebSocket(url, null, { tags: { op, name: op } });
    this.ws.addEventListener('open', () => {
      this.state = 'open';
      this.#poke();
    });
    this.ws.addEventListener('message', (e) => this.#onMessage(e as MessageEvent));
    this.ws.addEventListener('error', (e) => {
      this.error = (e as ErrorEvent).error;
      if (this.state === 'connecting') this.state = 'refused';
      this.#poke();
    });
    this.ws.addEventListener('close', () => {
      if (this.state !== 'refused') this.state = 'closed';
      this.#poke();
    });
  }

  #onMessage(e: MessageEvent): void {
    if (typeof e.data !== 'string') return;
    let frame: { id?: unknown; type?: unknown; payload?: unknown; metadata?: { custom?: unknown } };
    try {
      frame = JSON.parse(e.data) as typeof frame;
    } catch {
      return;
    }
    const payload = (typeof frame.payload === 'object' && frame.payload !== null ? frame.payload : {}) as Record<string, unknown>;
    const custom = frame.metadata?.custom;
    const event: WireEvent = {
      id: String(frame.id),
      type: String(frame.type),
      payload,
      custom: typeof custom === 'object' && custom !== null ? (custom as Record<string, unknown>) : undefined,
      at: typeof e.timestamp === 'number' ? e.timestamp : Date.now(),
    };
    this.events.push(event);
    if (event.type === 'EVENT_TYPE_EVENT_BATCH') {
      const replayed = Array.isArray(payload.events) ? (payload.events as { id?: unknown }[]) : [];
      if (this.batchAt === undefined) this.batchAt = event.at;
      this.batchSize += replayed.length;
      for (const h of replayed) this.history.push(String(h?.id));
    } else this.history.push(event.id);
    this.#poke();
  }

  #poke(): void {
    for (const attempt of [...this.#pending]) attempt();
  }

  /**
   * Resolves with the first non-undefined value of `probe`, tried now and after every event of the socket; undefined
   * once the socket is closed or refused without it, or after `timeoutMs`.
   */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const now = probe();
    if (now !== undefined || this.state === 'closed' || this.state === 'refused') return Promise.resolve(now);
    return new Promise((resolve) => {
      const settle = (v: T | undefined) => {
        clearTimeout(timer);
        this.#pending.delete(attempt);
        resolve(v);
      };
      const attempt = () => {
        const v = probe();
        if (v !== undefined || this.state === 'closed' || this.state === 'refused') settle(v);
        return true;
      };
      const timer = setTimeout(() => settle(probe()), timeoutMs);
      this.#pending.add(attempt);
    });
  }

  /** Whether the socket opened (true) or was refused or closed first (false); undefined on timeout. */
  opened(timeoutMs: number): Promise<boolean | undefined> {
    return this.waitFor(() => (this.state === 'open' ? true : this.state === 'connecting' ? undefined : false), timeoutMs);
  }

  /** The history batch's arrival time, once it came. */
  batch(timeoutMs: number): Promise<number | undefined> {
    return this.waitFor(() => this.batchAt, timeoutMs);
  }

  /** The first event at index `from` or later that matches. */
  next(match: (e: WireEvent) => boolean, timeoutMs: number, from = 0): Promise<WireEvent | undefined> {
    return this.waitFor(() => {
      for (let i = from; i < this.events.length; i++) {
        const e = this.events[i] as WireEvent;
        if (match(e)) return e;
      }
      return undefined;
    }, timeoutMs);
  }

  /** Sends one client event tagged with `turn` in `metadata.custom`, so its answers can be told apart; false when not open. */
  send(type: ClientEventType | string, payload: Record<string, unknown>, turn: string): boolean {
    if (this.state !== 'open') return false;
    this.ws.send(JSON.stringify({ type, payload, metadata: { custom: { [TURN_KEY]: turn } } }));
    return true;
  }

  /**
   * Closes the socket (a close frame, code 1000) and waits for it to end. Only an open socket is closed: k6 queues the
   * close frame for the socket's writer, which a socket still connecting does not have yet.
   */
  async close(timeoutMs: number): Promise<boolean> {
    if (this.state === 'open') this.ws.close();
    return (await this.waitFor(() => (this.state === 'closed' || this.state === 'refused' ? true : undefined), timeoutMs)) === true;
  }
}

/**
 * One socket's view of a session's history against `seen`, the view of a socket that sent nothing (so it holds only
 * what the session broadcast): events of `seen` it lacks, ids it holds more than once, and whether the broadcast events
 * came in the same order. Events only this socket got (answers to its own client events) are neither lost nor repeated.
 *
 * @example
 * compareHistory(['a', 'b', 'c'], ['a', 'b', 'b', 'c']) // { lost: 0, duplicated: 1, inOrder: false }
 */
export function compareHistory(seen: readonly string[], view: readonly string[]): { lost: number; duplicated: number; inOrder: boolean } {
  const have = new Set(view);
  const broadcast = new Set(seen);
  const shared = view.filter((id) => broadcast.has(id));
  return {
    lost: seen.filter((id) => !have.has(id)).length,
    duplicated: view.length - have.size,
    inOrder: shared.length === seen.length && seen.every((id, i) => shared[i] === id),
  };
}
