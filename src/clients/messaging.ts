import WebSocket from 'ws';
import {
  AccessTokenHeaders,
  type AccessTokenResponse,
  bearer,
  type CustomMetadata,
  JSON_CONTENT_TYPE,
  MessagingPaths,
  REFERENCE_MESSAGING_HOST,
  SessionHeaders,
  type SessionResponse,
} from '../contract/messaging/shapes.js';
import { eventNameMap, REFERENCE_NAMES } from '../contract/names.js';
import type { LoadedProfile } from '../profile/load.js';
import { agentReplyWait, DEFAULT_AGENT_REPLY_MS } from '../profile/schema.js';
import { nodeTlsOptions } from '../profile/tls.js';
import { type Exchange, logUnanswered, type Response, request, TargetUnreachable, trustFor, type WsFrame } from './exchange.js';
import { currentScope, mutateAnswer, mutateFrame } from './mutation.js';

/** A server event as received: any JSON value is kept, so cases can check what the document requires of it. */
export type WireEvent = {
  readonly type?: unknown;
  readonly payload?: unknown;
  readonly id?: unknown;
  readonly timestamp?: unknown;
  readonly metadata?: unknown;
  readonly [key: string]: unknown;
};

/** How a socket ended. */
export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

/** Overrides for one HTTP call, so cases can send what a well-behaved client would not. */
export interface MessagingCallOptions {
  /** Replace or remove (undefined) headers. */
  readonly headers?: Record<string, string | undefined>;
  /** Send this string as the body instead of JSON; `null` sends no body at all. */
  readonly rawBody?: string | null;
  /** Another connector token than the profile's (one the control surface made, for example). */
  readonly connectorToken?: string;
  /** Another X-Host than the profile's. */
  readonly host?: string;
}

/** What a successful access token and session give: everything the WebSocket needs. */
export interface Handshake {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly sessionId: string;
}

/** The WebSocket query; every field optional so cases can leave one out. */
export interface SocketQuery {
  readonly access_token?: string | undefined;
  readonly session_id?: string | undefined;
  readonly cursor?: string | undefined;
}

/** A handshake the target refused: the HTTP answer to the upgrade request. */
export interface Refusal {
  readonly opened: false;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly json: unknown;
  readonly exchange: Exchange;
}

/** The outcome of a handshake: the open socket, or the target's HTTP refusal. */
export type Connection = { readonly opened: true; readonly socket: MessagingSocket } | Refusal;

const JWT = /\b(eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\.[A-Za-z0-9_-]+/g;

/**
 * Masks the signature of every access token in `text`: the document says access tokens must not be logged, and
 * without its signature a token is useless while its claims stay readable for debugging.
 *
 * @example
 * maskTokens('Bearer eyJh.eyJz.c2ln') // 'Bearer eyJh.eyJz.[signature redacted]'
 */
export function maskTokens(text: string): string {
  return text.replace(JWT, '$1.[signature redacted]');
}

const maskRecord = (r: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, maskTokens(v)]));

function masked(ex: Exchange): Exchange {
  return {
    ...ex,
    url: maskTokens(ex.url),
    requestHeaders: maskRecord(ex.requestHeaders),
    requestBody: ex.requestBody === undefined ? undefined : maskTokens(ex.requestBody),
    responseHeaders: maskRecord(ex.responseHeaders),
    responseBody: maskTokens(ex.responseBody),
  };
}

/** Thrown when the handshake a case needs as a step (not as its subject) does not succeed. */
export class HandshakeFailed extends Error {
  override readonly name = 'HandshakeFailed';
}

let barrierSeq = 0;

type EventNameMap = ReturnType<typeof eventNameMap>;

/**
 * A received event with the platform's names for the undocumented types put back into the reference spellings the
 * cases check against, in a history batch too. The wire log keeps the frame as it came.
 */
function inReferenceNames(event: WireEvent, names: EventNameMap): WireEvent {
  const rename = (e: WireEvent): WireEvent =>
    typeof e.type === 'string' && names.toReference(e.type) !== e.type ? { ...e, type: names.toReference(e.type) } : e;
  const batch = event.payload as { events?: unknown } | undefined;
  if (Array.isArray(batch?.events)) {
    const events = batch.events.map((e) => (typeof e === 'object' && e !== null ? rename(e as WireEvent) : e));
    return rename({ ...event, payload: { ...batch, events } });
  }
  return rename(event);
}

/**
 * One open messaging WebSocket. Every frame is kept in `events` (in arrival order) and in the wire log; `waitFor`
 * waits, bounded, for the first event that matches.
 */
export class MessagingSocket {
  /** Every frame received, parsed; a frame that is not JSON is kept as `{ raw }`. */
  readonly events: WireEvent[] = [];
  readonly closed: Promise<CloseInfo>;
  readonly #waiters = new Set<() => void>();
  #close: CloseInfo | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly frames: WsFrame[],
    private readonly started: number,
    /** The platform's spellings of the event types the documents leave out (the profile's `names`). */
    private readonly names: EventNameMap = eventNameMap(REFERENCE_NAMES.messaging_events),
    /** How long a wait lasts unless its caller says (the profile's `waits.agent_reply_ms`). */
    private readonly waitMs = DEFAULT_AGENT_REPLY_MS,
  ) {
    // The case's mutation (if any) is the one armed where the socket opened, whenever its frames arrive.
    const scope = currentScope();
    ws.on('message', (data, isBinary) => {
      const received = isBinary ? `<binary ${(data as Buffer).length} bytes>` : data.toString();
      for (const text of mutateFrame('messaging', received, scope)) this.#receive(text);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.#close = { code, reason: reason.toString() };
        this.frames.push({ dir: 'closed', data: `${code} ${this.#close.reason}`.trim(), ms: this.#ms() });
        this.#wake();
        resolve(this.#close);
      });
    });
    ws.on('error', () => {});
  }

  #receive(text: string): void {
    this.frames.push({ dir: 'received', data: maskTokens(text), ms: this.#ms() });
    let event: WireEvent;
    try {
      const parsed: unknown = JSON.parse(text);
      event = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as WireEvent) : { raw: text };
    } catch {
      event = { raw: text };
    }
    this.events.push(inReferenceNames(event, this.names));
    this.#wake();
  }

  #ms = () => Math.round(performance.now() - this.started);
  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends an event object as JSON, or a string exactly as given (for malformed frames). */
  send(event: unknown): void {
    const text = typeof event === 'string' ? event : JSON.stringify(event);
    this.frames.push({ dir: 'sent', data: maskTokens(text), ms: this.#ms() });
    this.ws.send(text);
  }

  /** Sends `{ type, payload }` with `metadata.custom` when given. */
  sendEvent(type: string, payload: Record<string, unknown> = {}, custom?: CustomMetadata): void {
    this.send({ type: this.names.toWire(type), payload, ...(custom ? { metadata: { custom } } : {}) });
  }

  /**
   * The first event at or after index `from` that matches, within `timeoutMs`. Rejects when the time runs out or
   * the socket closes first, naming what was awaited and the types that did arrive.
   */
  waitFor(match: (e: WireEvent) => boolean, options: { what: string; from?: number; timeoutMs?: number }): Promise<{ event: WireEvent; index: number }> {
    const from = options.from ?? 0;
    const timeoutMs = options.timeoutMs ?? this.waitMs;
    return new Promise((resolve, reject) => {
      const check = () => {
        const index = this.events.findIndex((e, i) => i >= from && match(e));
        const event = this.events[index];
        if (index >= 0 && event) return done(() => resolve({ event, index }));
        if (this.#close)
          return done(() => reject(new Error(`socket closed (${this.#close?.code}) before ${options.what} arrived; received ${this.#summary(from)}`)));
      };
      // A wait of the profile's length names its setting: a platform slower than that sets its own.
      const setting = options.timeoutMs === undefined ? ' (waits.agent_reply_ms)' : '';
      const timer = setTimeout(
        () => done(() => reject(new Error(`${options.what} did not arrive within ${timeoutMs} ms${setting}; received ${this.#summary(from)}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        settle();
      };
      this.#waiters.add(check);
      check();
    });
  }

  #summary(from: number): string {
    const types = this.events.slice(from).map((e) => String(e.type ?? 'non-event frame'));
    return types.length ? types.join(', ') : 'nothing';
  }

  /**
   * Sends an event of a type no target knows, tagged in metadata.custom, and waits for the error system message that
   * echoes the tag. Targets answer a socket's frames in order, so once it arrives every answer to earlier frames
   * has arrived too: a bounded way to say "nothing else came" without sleeping. Returns the reply's index.
   */
  async barrier(timeoutMs = this.waitMs): Promise<number> {
    const tag = ++barrierSeq;
    const from = this.events.length;
    this.sendEvent('EVENT_TYPE_DIALTONE_BARRIER', {}, { dialtone_barrier: tag });
    const { index } = await this.waitFor((e) => (e.metadata as { custom?: { dialtone_barrier?: unknown } } | undefined)?.custom?.dialtone_barrier === tag, {
      what: 'the answer to an event of unknown type (sent to mark a point in the stream)',
      from,
      timeoutMs,
    });
    return index;
  }

  /** Closes with a close frame and waits until the socket is closed. */
  close(): Promise<CloseInfo> {
    if (this.ws.readyState === WebSocket.CONNECTING || this.ws.readyState === WebSocket.OPEN) this.ws.close(1000, 'done');
    return this.closed;
  }

  /** Drops the connection without a close frame, as a lost network would. */
  drop(): Promise<CloseInfo> {
    this.ws.terminate();
    return this.closed;
  }
}

/**
 * Typed client of the Messaging API (document 1): access token, session, WebSocket. HTTP calls and socket frames
 * go into `log`, the case's wire log, with access-token signatures masked.
 *
 * @example
 * const m = new MessagingClient(loaded);
 * const h = await m.handshake();
 * const socket = await m.open(h);
 * await socket.waitFor((e) => e.type === 'EVENT_TYPE_EVENT_BATCH', { what: 'the history batch' });
 */
export class MessagingClient {
  readonly #sockets = new Set<MessagingSocket>();
  constructor(
    private readonly loaded: LoadedProfile,
    /** The wire log this client appends to; shared by all clients of one case. */
    readonly log: Exchange[] = [],
  ) {}

  /** `{messaging_url}` without a trailing slash. */
  get baseUrl(): string {
    const url = this.loaded.profile.hosts.messaging_url;
    if (!url) throw new Error('the profile has no hosts.messaging_url');
    return url.replace(/\/$/, '');
  }

  /** The X-Host this client sends: the profile's `messaging_host`, else the reference target's registered domain. */
  get host(): string {
    return this.loaded.profile.messaging_host ?? REFERENCE_MESSAGING_HOST;
  }

  #headers(base: Record<string, string>, o: MessagingCallOptions): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...base, ...o.headers })) if (v !== undefined) out[k] = v;
    return out;
  }

  async #post<T>(path: string, headers: Record<string, string>, body: unknown, o: MessagingCallOptions): Promise<Response<T>> {
    const sent = o.rawBody === null ? undefined : (o.rawBody ?? body);
    const res = await request<T>({ method: 'POST', url: `${this.baseUrl}${path}`, headers, body: sent, trust: trustFor(this.loaded) }).catch(
      logUnanswered(this.log, masked),
    );
    this.log.push(masked(res.exchange));
    return res;
  }

  /** POST /api/v1/access-token with X-Token, X-Host, Content-Type and body `{}`. */
  accessToken(options: MessagingCallOptions = {}): Promise<Response<AccessTokenResponse>> {
    const token = options.connectorToken ?? this.loaded.secrets.messaging_connector_token;
    if (!token) throw new Error('the profile has no credentials.messaging_connector_token');
    const headers = this.#headers(
      { [AccessTokenHeaders.token]: token, [AccessTokenHeaders.host]: options.host ?? this.host, [AccessTokenHeaders.contentType]: JSON_CONTENT_TYPE },
      options,
    );
    return this.#post(MessagingPaths.accessToken, headers, {}, options);
  }

  /** POST /api/v1/sessions with `Authorization: Bearer <token>` (none when `accessToken` is undefined). */
  createSession(accessToken: string | undefined, body?: unknown, options: MessagingCallOptions = {}): Promise<Response<SessionResponse>> {
    const base: Record<string, string> = { [SessionHeaders.contentType]: JSON_CONTENT_TYPE };
    if (accessToken !== undefined) base[SessionHeaders.authorization] = bearer(accessToken);
    return this.#post(MessagingPaths.sessions, this.#headers(base, options), body, options);
  }

  /** An access token, for steps that need one: throws HandshakeFailed unless the target answers 200. */
  async token(options: MessagingCallOptions = {}): Promise<{ accessToken: string; expiresIn: number }> {
    const res = await this.accessToken(options);
    const body = res.json;
    if (res.status !== 200 || typeof body?.access_token !== 'string') throw new HandshakeFailed(`access-token answered ${res.status}: ${maskTokens(res.text)}`);
    return { accessToken: body.access_token, expiresIn: body.expires_in };
  }

  /** A session for an access token, for steps that need one: throws HandshakeFailed unless the target answers 200. */
  async session(accessToken: string, body?: unknown): Promise<string> {
    const res = await this.createSession(accessToken, body);
    if (res.status !== 200 || typeof res.json?.session_id !== 'string') throw new HandshakeFailed(`sessions answered ${res.status}: ${res.text}`);
    return res.json.session_id;
  }

  /** Access token, then session: what a WebSocket needs. */
  async handshake(sessionBody: unknown = {}, options: MessagingCallOptions = {}): Promise<Handshake> {
    const { accessToken, expiresIn } = await this.token(options);
    return { accessToken, expiresIn, sessionId: await this.session(accessToken, sessionBody) };
  }

  /** The `/ws` URL for a query; absent fields are left out. */
  wsUrl(q: SocketQuery): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, v);
    const qs = params.toString();
    return `${this.baseUrl.replace(/^http/, 'ws')}${MessagingPaths.ws}${qs ? `?${qs}` : ''}`;
  }

  /** Opens `/ws`; resolves with the open socket or with the HTTP refusal of the upgrade. */
  connect(q: SocketQuery, timeoutMs = 5000): Promise<Connection> {
    const url = this.wsUrl(q);
    const started = performance.now();
    const frames: WsFrame[] = [];
    const requestHeaders = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13' };
    const record = (status: number, responseHeaders: Record<string, string>, responseBody: string): Exchange => {
      const ex: Exchange = {
        method: 'GET',
        url: maskTokens(url.replace(/^ws/, 'http')),
        requestHeaders,
        requestBody: undefined,
        status,
        responseHeaders: maskRecord(responseHeaders),
        responseBody: maskTokens(responseBody),
        ms: performance.now() - started,
        frames,
      };
      this.log.push(ex);
      return ex;
    };
    const flat = (h: Record<string, string | string[] | undefined>) =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, ...nodeTlsOptions(trustFor(this.loaded)) });
      const socket = new MessagingSocket(ws, frames, started, eventNameMap(this.loaded.profile.names.messaging_events), agentReplyWait(this.loaded.profile).ms);
      let upgradeHeaders: Record<string, string> = {};
      let settled = false;
      ws.on('upgrade', (res) => {
        upgradeHeaders = flat(res.headers);
      });
      ws.on('open', () => {
        settled = true;
        record(101, upgradeHeaders, '');
        this.#sockets.add(socket);
        resolve({ opened: true, socket });
      });
      ws.on('unexpected-response', (req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          settled = true;
          // A refused upgrade is an HTTP answer like any other: a mutation armed for the case may rewrite it.
          const refused = mutateAnswer('GET', url.replace(/^ws/, 'http'), {
            status: res.statusCode ?? 0,
            headers: flat(res.headers),
            text: Buffer.concat(chunks).toString('utf8'),
          });
          const text = refused.text;
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const headers = { ...refused.headers };
          const exchange = record(refused.status, headers, text);
          req.destroy();
          resolve({ opened: false, status: refused.status, headers, text, json, exchange });
        });
      });
      ws.on('error', (e) => {
        if (!settled) reject(new TargetUnreachable(`GET ${maskTokens(url)}: ${e.message}`));
      });
    });
  }

  /** Opens the socket of a handshake (optionally from a cursor); throws HandshakeFailed when it is refused. */
  async open(h: Handshake, cursor?: string): Promise<MessagingSocket> {
    const c = await this.connect({ access_token: h.accessToken, session_id: h.sessionId, cursor });
    if (!c.opened) throw new HandshakeFailed(`the WebSocket handshake was refused: ${c.status} ${c.text}`);
    return c.socket;
  }

  /** Closes every socket this client opened (dropping any that do not finish the close within a second). */
  async closeAll(): Promise<void> {
    const bounded = (s: MessagingSocket) => {
      const t = setTimeout(() => void s.drop(), 1000);
      return s.close().finally(() => clearTimeout(t));
    };
    await Promise.all([...this.#sockets].map(bounded));
    this.#sockets.clear();
  }
}
