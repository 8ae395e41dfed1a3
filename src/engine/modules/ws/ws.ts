// k6/ws, k6's first WebSocket API (/javascript-api/k6-ws/), on the same sockets as k6/websockets: `ws.connect(url,
// [params], callback)` calls `callback(socket)` at once, then the VU waits until the socket closes and gets the
// handshake's Response. In k6 the call blocks the VU; here it returns a promise that the script's rewrite awaits.

import type { ModuleFactory, VuHost } from '../../types.js';
import { WS_METRICS } from '../websockets/metrics.js';
import { BAD_HANDSHAKE, VuWebSocket, type WsEvent, type WsParams } from '../websockets/websockets.js';

type Handler = (...args: unknown[]) => unknown;

/** What `ws.connect` resolves: the handshake as k6/ws's examples read it (`res.status === 101`). */
export interface WsResponse {
  readonly url: string;
  readonly status: number;
  readonly error: string;
}

/** Runs a handler; a promise it returns (a handler the rewrite made async) holds the iteration, and what it throws ends it. */
function call(vu: VuHost, fn: Handler, args: unknown[]): void {
  try {
    const r = fn(...args);
    if (r instanceof Promise) vu.track(r).catch((e) => vu.error(e));
  } catch (e) {
    vu.error(e);
  }
}

/** The `socket` a connect callback gets (/javascript-api/k6-ws/socket/). */
class LegacySocket {
  readonly #vu: VuHost;
  readonly #ws: VuWebSocket;
  readonly #handlers = new Map<string, Handler[]>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(vu: VuHost, ws: VuWebSocket) {
    this.#vu = vu;
    this.#ws = ws;
    ws.addEventListener('open', () => this.#emit('open'));
    ws.addEventListener('message', (e: WsEvent) => (typeof e.data === 'string' ? this.#emit('message', e.data) : this.#emit('binaryMessage', e.data)));
    ws.addEventListener('ping', () => this.#emit('ping'));
    ws.addEventListener('pong', () => this.#emit('pong'));
    ws.addEventListener('error', (e: WsEvent) => this.#emit('error', { error: () => e.error ?? BAD_HANDSHAKE }));
    ws.addEventListener('close', (e: WsEvent) => {
      this.#stopTimers();
      this.#emit('close', e.code);
    });
  }

  /** "Set up an event listener on the connection": several handlers per event run in order. */
  on(event: string, fn: Handler): void {
    if (typeof fn !== 'function') throw new Error(`k6/ws: socket.on('${event}') needs a function`);
    const list = this.#handlers.get(event);
    if (list) list.push(fn);
    else this.#handlers.set(event, [fn]);
  }

  send(data: string): void {
    this.#ws.send(String(data));
  }

  sendBinary(data: ArrayBuffer): void {
    if (!(data instanceof ArrayBuffer)) throw new Error('k6/ws: sendBinary() takes an ArrayBuffer');
    this.#ws.send(data);
  }

  ping(): void {
    this.#ws.ping();
  }

  /** "Close the WebSocket connection"; k6/ws's default code is 1001 (going away). */
  close(code = 1001): void {
    this.#ws.close(code);
  }

  /** Runs `fn` after `ms` unless the socket closed first (timers live only while it is open). */
  setTimeout(fn: Handler, ms: number): void {
    const t = setTimeout(
      () => {
        this.#timers.delete(t);
        call(this.#vu, fn, []);
      },
      Math.max(0, Number(ms) || 0),
    );
    this.#timers.add(t);
  }

  setInterval(fn: Handler, ms: number): void {
    const t = setInterval(() => call(this.#vu, fn, []), Math.max(1, Number(ms) || 0));
    this.#timers.add(t);
  }

  #stopTimers(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #emit(event: string, ...args: unknown[]): void {
    for (const fn of this.#handlers.get(event) ?? []) call(this.#vu, fn.bind(this), args);
  }
}

/** `k6/ws` for one VU. */
export const wsModule: ModuleFactory = (vu) => {
  for (const m of WS_METRICS) vu.sink.declare(m);
  function connect(url: string, paramsOrCallback?: WsParams | Handler | null, callback?: Handler): Promise<WsResponse> {
    const cb = typeof paramsOrCallback === 'function' ? paramsOrCallback : callback;
    const params = typeof paramsOrCallback === 'function' ? null : (paramsOrCallback ?? null);
    if (typeof cb !== 'function') throw new Error('k6/ws: connect(url, [params], callback) needs a callback');
    const ws = new VuWebSocket(vu, url, undefined, params);
    let error = '';
    ws.addEventListener('error', (e: WsEvent) => {
      error ||= e.error ?? BAD_HANDSHAKE;
    });
    const closed = new Promise<WsResponse>((resolve) => ws.addEventListener('close', () => resolve({ url: String(url), status: ws.handshakeStatus, error })));
    const socket = new LegacySocket(vu, ws);
    try {
      const r = cb(socket);
      if (r instanceof Promise) vu.track(r).catch((e) => vu.error(e));
    } catch (e) {
      ws.close(1001);
      throw e;
    }
    return vu.track(closed);
  }
  const exports: Record<string, unknown> = { connect };
  exports.default = exports;
  return exports;
};

export default wsModule;
