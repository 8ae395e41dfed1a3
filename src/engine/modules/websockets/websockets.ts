// k6/websockets for the built-in engine (/javascript-api/k6-websockets/), on the `ws` package: the browser-style
// WebSocket, many per VU, each holding the iteration while it is open.
//
// Metrics (/using-k6/metrics/reference/): ws_sessions (one per socket attempt, tagged with the handshake's status:
// "101", the refusing status such as "429", or "0" when no HTTP answer came), ws_connecting (handshake time),
// ws_msgs_sent / ws_msgs_received, ws_session_duration (start to close), ws_ping (ping to pong), data_sent /
// data_received (the connection's bytes, counted when it ends).

import type { IncomingMessage } from 'node:http';
import net, { type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import NodeWebSocket from 'ws';
import { type HostsLookup, hostsLookup } from '../../hosts.js';
import type { ModuleFactory, Tags, VuHost } from '../../types.js';
import { DEFAULT_USER_AGENT } from '../http/http.js';
import { secureContextOf } from '../http/tls-context.js';
import { WS_METRICS } from './metrics.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;
type ReadyState = typeof CONNECTING | typeof OPEN | typeof CLOSING | typeof CLOSED;

type EventName = 'open' | 'close' | 'error' | 'message' | 'ping' | 'pong';
const EVENT_NAMES: ReadonlySet<string> = new Set<EventName>(['open', 'close', 'error', 'message', 'ping', 'pong']);

/** What listeners get: `type` and `timestamp` (ms since the epoch), plus `data`, `error` or `code`/`reason`. */
export interface WsEvent {
  readonly type: EventName;
  readonly timestamp: number;
  readonly data?: string | ArrayBuffer;
  readonly error?: string;
  readonly code?: number;
  readonly reason?: string;
}
type Listener = (event: WsEvent) => void;

/** The constructor's third argument (`Params` in @types/k6/websockets). */
export interface WsParams {
  headers?: Record<string, string>;
  tags?: Record<string, string | number | boolean>;
  compression?: string;
  jar?: unknown;
}

/** The error text k6 gives when the server answers the handshake with something other than 101. */
export const BAD_HANDSHAKE = 'websocket: bad handshake';

/** A copy of `buf`'s bytes as an ArrayBuffer of their own. */
function toArrayBuffer(buf: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(buf.byteLength);
  new Uint8Array(out).set(buf);
  return out;
}

/**
 * A socket to where options.hosts sends the URL's host (hosts.ts), its TLS server name still the URL's host: ws calls
 * it with the request's options (host, port, and for wss the TLS ones).
 */
function redirected(hosts: HostsLookup, secure: boolean) {
  return (o: tls.ConnectionOptions & net.NetConnectOpts & { host: string; port: number }): net.Socket => {
    const to = hosts(o.host, Number(o.port)) ?? { host: o.host, port: Number(o.port) };
    if (!secure) return net.connect({ ...o, host: to.host, port: to.port, path: undefined } as net.NetConnectOpts);
    const servername = o.servername || (net.isIP(o.host) ? '' : o.host);
    return tls.connect({ ...o, host: to.host, port: to.port, servername, path: undefined } as tls.ConnectionOptions);
  };
}

function rawToBuffer(data: NodeWebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * One socket. Made through the per-VU class the module exports, which supplies `vu`; k6/ws's sockets wrap one too.
 */
export class VuWebSocket {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSING = CLOSING;
  static readonly CLOSED = CLOSED;
  readonly CONNECTING = CONNECTING;
  readonly OPEN = OPEN;
  readonly CLOSING = CLOSING;
  readonly CLOSED = CLOSED;

  readonly url: string;
  onopen: Listener | null = null;
  onmessage: Listener | null = null;
  onerror: Listener | null = null;
  onclose: Listener | null = null;
  onping: Listener | null = null;
  onpong: Listener | null = null;

  #vu: VuHost;
  #ws: NodeWebSocket;
  #state: ReadyState = CONNECTING;
  #listeners = new Map<EventName, Listener[]>();
  #userTags: Record<string, string>;
  #tags: Tags | undefined;
  #started = performance.now();
  #socket: Socket | undefined;
  /** The HTTP status that refused the handshake. */
  #refused = 0;
  /** The handshake's HTTP status (101 when upgraded), 0 before or without an answer. */
  #status = 0;
  #pings: number[] = [];
  #release: () => void;
  #signal: AbortSignal;
  #finished = false;
  /** Ended by the iteration's interruption: its errors are not the script's to handle. */
  #interrupted = false;

  constructor(vu: VuHost, url: string | URL, _protocols?: unknown, params?: WsParams | null) {
    this.#vu = vu;
    this.url = String(url);
    const p = params ?? {};
    this.#userTags = {};
    for (const [k, v] of Object.entries(p.tags ?? {})) this.#userTags[k] = String(v);
    const headers: Record<string, string> = { ...p.headers };
    const ua = typeof vu.options.userAgent === 'string' ? vu.options.userAgent : DEFAULT_USER_AGENT;
    if (ua !== '' && !Object.keys(headers).some((h) => h.toLowerCase() === 'user-agent')) headers['User-Agent'] = ua;
    const insecure = vu.tls.insecure || vu.options.insecureSkipTLSVerify === true;
    const hosts = hostsLookup(vu.options.hosts);
    // k6 documents `protocols` as unused, so no subprotocol is offered.
    this.#ws = new NodeWebSocket(this.url, {
      headers,
      perMessageDeflate: p.compression === 'deflate',
      followRedirects: false,
      // k6 documents no handshake timeout; this one matches k6/http's default request timeout.
      handshakeTimeout: 60_000,
      ...(vu.tls.ca !== undefined ? { secureContext: secureContextOf(vu.tls.ca) } : {}),
      rejectUnauthorized: !insecure,
      // ws hands createConnection to http(s).request, whose types it does not repeat.
      ...((hosts ? { createConnection: redirected(hosts, /^(wss|https):/i.test(this.url)) } : {}) as object),
    });
    this.#ws.binaryType = 'nodebuffer';
    this.#release = vu.hold();
    this.#signal = vu.signal;
    const ws = this.#ws;
    ws.on('upgrade', (res: IncomingMessage) => this.#onUpgrade(res));
    ws.on('unexpected-response', (_req, res: IncomingMessage) => this.#onRefused(res));
    ws.on('open', () => this.#onOpen());
    ws.on('message', (data: NodeWebSocket.RawData, isBinary: boolean) => this.#onMessage(data, isBinary));
    ws.on('ping', () => this.#dispatch({ type: 'ping', timestamp: Date.now() }));
    ws.on('pong', () => this.#onPong());
    ws.on('error', (err: Error) => this.#onError(err));
    ws.on('close', (code: number, reason: Buffer) => this.#onClose(code, reason));
    if (this.#signal.aborted) this.#abort();
    else this.#signal.addEventListener('abort', this.#abort, { once: true });
  }

  get readyState(): ReadyState {
    return this.#state;
  }

  /** The handshake's HTTP status: 101 when upgraded, the refusing status, or 0 without an answer (k6/ws's Response). */
  get handshakeStatus(): number {
    return this.#status;
  }

  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }

  get binaryType(): 'arraybuffer' {
    return 'arraybuffer';
  }

  set binaryType(t: string) {
    if (t === 'arraybuffer') return;
    if (t === 'blob') throw new Error("k6/websockets: binaryType 'blob' is not supported by the built-in engine; use 'arraybuffer'");
    throw new Error(`k6/websockets: unknown binaryType '${t}'`);
  }

  addEventListener(event: string, listener: Listener): void {
    if (!EVENT_NAMES.has(event)) throw new Error(`k6/websockets: unknown event '${event}'`);
    if (typeof listener !== 'function') throw new Error('k6/websockets: addEventListener needs a function');
    const list = this.#listeners.get(event as EventName);
    if (list) list.push(listener);
    else this.#listeners.set(event as EventName, [listener]);
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    if (this.#state === CONNECTING) throw new Error('k6/websockets: send() on a socket that is not open yet (InvalidStateError)');
    if (this.#state !== OPEN) return;
    let payload: string | Buffer;
    if (typeof data === 'string') payload = data;
    else if (data instanceof ArrayBuffer) payload = Buffer.from(data);
    else if (ArrayBuffer.isView(data)) payload = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    else throw new Error('k6/websockets: send() takes a string, an ArrayBuffer or a typed array (Blob is not supported)');
    this.#ws.send(payload);
    this.#vu.sink.emit('ws_msgs_sent', 1, this.#sampleTags());
  }

  ping(): void {
    if (this.#state !== OPEN) return;
    this.#pings.push(performance.now());
    this.#ws.ping();
  }

  close(code = 1000, reason?: string): void {
    if (this.#state === CLOSING || this.#state === CLOSED) return;
    this.#state = CLOSING;
    this.#ws.close(code, reason);
  }

  // ---- ws events ----

  #onUpgrade(res: IncomingMessage): void {
    this.#socket = res.socket;
    this.#handshakeDone(101, res.headers['sec-websocket-protocol']);
  }

  #onRefused(res: IncomingMessage): void {
    this.#socket = res.socket;
    this.#refused = res.statusCode ?? 0;
    this.#handshakeDone(this.#refused, undefined);
    res.resume();
    // Aborts the handshake: ws then emits an error (reported as k6's bad handshake) and the close.
    this.#ws.terminate();
  }

  #handshakeDone(status: number, subproto: string | undefined): void {
    this.#status = status;
    const tags: Record<string, string> = { ...this.#vu.tags(), url: this.url, status: String(status) };
    if (subproto) tags.subproto = subproto;
    Object.assign(tags, this.#userTags);
    this.#tags = tags;
    const now = Date.now();
    this.#vu.sink.emit('ws_connecting', performance.now() - this.#started, tags, now);
    this.#vu.sink.emit('ws_sessions', 1, tags, now);
  }

  #onOpen(): void {
    if (this.#state === CONNECTING) this.#state = OPEN;
    this.#dispatch({ type: 'open', timestamp: Date.now() });
  }

  #onMessage(data: NodeWebSocket.RawData, isBinary: boolean): void {
    // The WebSocket standard k6/websockets follows: a message received while the ready state is not OPEN (after
    // close() was called) is not delivered. A socket the script closed then hears nothing more.
    if (this.#state !== OPEN) return;
    const buf = rawToBuffer(data);
    this.#vu.sink.emit('ws_msgs_received', 1, this.#sampleTags());
    this.#dispatch({ type: 'message', timestamp: Date.now(), data: isBinary ? toArrayBuffer(buf) : buf.toString('utf8') });
  }

  #onPong(): void {
    const sent = this.#pings.shift();
    if (sent !== undefined) this.#vu.sink.emit('ws_ping', performance.now() - sent, this.#sampleTags());
    this.#dispatch({ type: 'pong', timestamp: Date.now() });
  }

  #onError(err: Error): void {
    if (this.#finished || this.#interrupted) return;
    const text = this.#refused ? BAD_HANDSHAKE : err.message;
    this.#dispatch({ type: 'error', timestamp: Date.now(), error: text });
  }

  #onClose(code: number, reason: Buffer): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#state = CLOSED;
    this.#signal.removeEventListener('abort', this.#abort);
    const noAnswer = this.#tags === undefined;
    const tags = this.#sampleTags();
    const now = Date.now();
    if (noAnswer) this.#vu.sink.emit('ws_sessions', 1, tags, now);
    this.#vu.sink.emit('ws_session_duration', performance.now() - this.#started, tags, now);
    const socket = this.#socket;
    if (socket) {
      this.#vu.sink.emit('data_sent', socket.bytesWritten, tags, now);
      this.#vu.sink.emit('data_received', socket.bytesRead, tags, now);
    }
    try {
      this.#dispatch({ type: 'close', timestamp: now, code, reason: reason.toString('utf8') });
    } finally {
      this.#release();
    }
  }

  /** The interrupted iteration ends the socket at once. */
  #abort = (): void => {
    if (this.#state === CLOSED) return;
    this.#interrupted = true;
    this.#state = CLOSING;
    this.#ws.terminate();
  };

  /** Tags of this socket's samples: those of its handshake, or (no HTTP answer) status "0". */
  #sampleTags(): Tags {
    if (this.#tags === undefined) this.#tags = { ...this.#vu.tags(), url: this.url, status: '0', ...this.#userTags };
    return this.#tags;
  }

  #dispatch(event: WsEvent): void {
    const prop = this[`on${event.type}`];
    if (typeof prop === 'function') this.#call(prop, event);
    const list = this.#listeners.get(event.type);
    if (list) for (const l of list) this.#call(l, event);
  }

  /** Runs a listener; what it throws ends the iteration (`vu.error`), as an uncaught exception does in k6. */
  #call(fn: Listener, event: WsEvent): void {
    try {
      fn.call(this, event);
    } catch (err) {
      this.#vu.error(err);
    }
  }
}

/** `k6/websockets` for one VU. */
export const websocketsModule: ModuleFactory = (vu) => {
  for (const m of WS_METRICS) vu.sink.declare(m);
  class WebSocket extends VuWebSocket {
    constructor(url: string | URL, protocols?: unknown, params?: WsParams | null) {
      super(vu, url, protocols, params);
    }
  }
  const exports: Record<string, unknown> = { WebSocket };
  exports.default = exports;
  return exports;
};

export default websocketsModule;
