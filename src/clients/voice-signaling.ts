import WebSocket from 'ws';
import { nodeTlsOptions, SYSTEM_TRUST, type Trust } from '../profile/tls.js';
import type { Exchange } from './exchange.js';
import { currentScope, mutateFrame } from './mutation.js';

/** One frame the gateway sent, parsed when it is JSON. */
export interface Frame {
  readonly raw: string;
  /** The parsed message; undefined when the frame is not a JSON object. */
  readonly message: ServerMessage | undefined;
  /** performance.now() when it arrived. */
  readonly at: number;
}

/** A signaling message as received: loosely typed, since checking its shape is the suite's job. */
export interface ServerMessage {
  readonly type?: unknown;
  readonly sessionId?: unknown;
  readonly data?: Record<string, unknown>;
  readonly [field: string]: unknown;
}

/** The longest a case waits for one signaling message. */
export const SIGNAL_TIMEOUT_MS = 5000;

/**
 * The longest frame the wire log keeps whole. An SDP offer or answer with its candidates runs to a few kilobytes (0.6 to
 * 3 kB from the reference client and gateway): kept whole, it validates against its AsyncAPI payload schema.
 */
export const FRAME_LOG_LIMIT = 16_384;

const cut = (s: string) => (s.length > FRAME_LOG_LIMIT ? `${s.slice(0, FRAME_LOG_LIMIT)}… (${s.length} bytes)` : s);

/**
 * A signaling WebSocket of the voice gateway. Every frame both ways is kept, and the socket appears in the case's wire
 * log as one exchange (upgrade request, frames sent, frames received).
 *
 * @example
 * const s = await SignalingSocket.open(url, log);
 * s.send({ type: 'offer', sessionId: '', authToken, data: { type: 'offer', sdp } });
 * const answer = await s.next((m) => m.type === 'answer' || m.type === 'error', 'an answer');
 */
export class SignalingSocket {
  readonly frames: Frame[] = [];
  readonly sent: string[] = [];
  readonly #consumed = new Set<number>();
  readonly #waiters = new Set<() => void>();
  #closed: { code: number; reason: string } | undefined;
  #barriers = 0;

  private constructor(
    private readonly ws: WebSocket,
    readonly url: string,
  ) {
    // The case's mutation (if any) is the one armed where the socket opened, whenever its frames arrive.
    const scope = currentScope();
    ws.on('message', (data) => {
      for (const raw of mutateFrame('voice', data.toString(), scope)) this.#receive(raw);
    });
    ws.on('close', (code, reason) => {
      this.#closed = { code, reason: reason.toString() };
      this.#wake();
    });
    ws.on('error', () => {});
  }

  #receive(raw: string): void {
    let message: ServerMessage | undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) message = parsed as ServerMessage;
    } catch {
      message = undefined;
    }
    this.frames.push({ raw, message, at: performance.now() });
    this.#wake();
  }

  /** Opens the socket and adds it to `log`; rejects when the upgrade fails within the timeout. `trust` verifies a wss: gateway. */
  static open(url: string, log: Exchange[], timeoutMs = SIGNAL_TIMEOUT_MS, trust: Trust = SYSTEM_TRUST): Promise<SignalingSocket> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, ...nodeTlsOptions(trust) });
      let status = 0;
      ws.on('upgrade', (res) => {
        status = res.statusCode ?? 101;
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`signaling upgrade at ${url} answered ${res.statusCode}`)));
      ws.once('error', (e) => reject(new Error(`signaling socket ${url}: ${e.message}`)));
      ws.once('open', () => {
        const socket = new SignalingSocket(ws, url);
        log.push(socket.#exchange(status, started));
        resolve(socket);
      });
    });
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** How the socket closed, once it has. */
  get closed(): { code: number; reason: string } | undefined {
    return this.#closed;
  }

  /** Sends a message as JSON, or a string as is. */
  send(message: object | string): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    this.sent.push(text);
    this.ws.send(text);
  }

  /**
   * The first message not yet taken that matches, waiting for it up to `timeoutMs`. Rejects with what did arrive.
   * `after` only considers frames from that index on.
   */
  async next(match: (m: ServerMessage) => boolean, what: string, options: { timeoutMs?: number; after?: number } = {}): Promise<ServerMessage> {
    const deadline = performance.now() + (options.timeoutMs ?? SIGNAL_TIMEOUT_MS);
    for (;;) {
      const i = this.frames.findIndex((f, idx) => idx >= (options.after ?? 0) && !this.#consumed.has(idx) && f.message !== undefined && match(f.message));
      if (i >= 0) {
        this.#consumed.add(i);
        return this.frames[i]?.message as ServerMessage;
      }
      const left = deadline - performance.now();
      if (left <= 0 || this.#closed) {
        const state = this.#closed ? `socket closed (${this.#closed.code})` : `no ${what} within ${options.timeoutMs ?? SIGNAL_TIMEOUT_MS} ms`;
        throw new Error(`${state}; received: ${this.summary()}`);
      }
      await this.#wait(left);
    }
  }

  /** The next error message (any code), optionally only for `sessionId`. */
  nextError(what = 'an error message', options: { timeoutMs?: number; after?: number; sessionId?: string } = {}): Promise<ServerMessage> {
    return this.next((m) => m.type === 'error' && (options.sessionId === undefined || m.sessionId === options.sessionId), what, options);
  }

  /**
   * Sends a message every gateway must answer with INVALID_MESSAGE (an unknown type) and waits for that answer. The
   * gateway handles a socket's messages in order, so every message sent before it has been answered (or ignored) by
   * then. Returns the messages that arrived since frame index `from`, without the barrier's own answer (known by the
   * barrier's sessionId, or by an empty one from a gateway that does not echo it).
   */
  async barrier(from: number): Promise<ServerMessage[]> {
    const id = `dialtone-barrier-${++this.#barriers}`;
    const mark = this.frames.length;
    this.send({ type: 'dialtone-barrier', sessionId: id });
    const isReply = (m: ServerMessage) =>
      m.type === 'error' && (m.data as { code?: unknown } | undefined)?.code === 'INVALID_MESSAGE' && (m.sessionId === id || m.sessionId === '');
    const reply = await this.next(isReply, 'the INVALID_MESSAGE answer to an unknown type', { after: mark });
    return this.frames
      .slice(from)
      .map((f) => f.message)
      .filter((m): m is ServerMessage => m !== undefined && m !== reply);
  }

  /** One line per received frame, short enough for a failure message. */
  summary(): string {
    if (this.frames.length === 0) return 'nothing';
    return this.frames
      .map((f) => {
        const m = f.message;
        if (!m) return `non-JSON ${JSON.stringify(f.raw.slice(0, 80))}`;
        const data = m.type === 'error' ? ` ${JSON.stringify(m.data)}` : '';
        return `${String(m.type)}(${JSON.stringify(m.sessionId)})${data}`;
      })
      .join(', ');
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000);
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  /** The wire-log view of this socket; its bodies are read when the report is written, so they hold every frame. */
  #exchange(status: number, started: number): Exchange {
    const socket = this;
    return {
      method: 'GET',
      url: this.url,
      requestHeaders: { Connection: 'Upgrade', Upgrade: 'websocket' },
      get requestBody() {
        return socket.sent.map((s) => `→ ${cut(s)}`).join('\n');
      },
      status,
      responseHeaders: {},
      get responseBody() {
        return socket.frames.map((f) => `← ${cut(f.raw)}`).join('\n');
      },
      ms: performance.now() - started,
    };
  }
}
