// The caller's signaling socket: JSON messages over a WebSocket, each received one kept until a waiter takes it.
import WebSocket from 'ws';

/** A signaling message as received: a `type` and whatever else the gateway sent. */
export type Message = { readonly type?: unknown; readonly [key: string]: unknown };

/** TLS as the engine trusts it (SSL_CERT_FILE, insecureSkipTLSVerify). */
export interface SocketTls {
  readonly ca?: string | undefined;
  readonly insecure: boolean;
}

/** One signaling socket of one call. */
export class Signaling {
  readonly #ws: WebSocket;
  readonly #inbox: Message[] = [];
  readonly #waiters = new Set<() => void>();
  #closed = false;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data) => {
      try {
        const m = JSON.parse(String(data)) as Message;
        if (m && typeof m === 'object') this.#inbox.push(m);
      } catch {
        // A frame that is not JSON is no message of the documented flow.
      }
      this.#wake();
    });
    ws.on('close', () => {
      this.#closed = true;
      this.#wake();
    });
    ws.on('error', () => {});
  }

  /** Opens the socket; rejects with the reason when it does not open within `timeoutMs`. */
  static open(url: string, tls: SocketTls, timeoutMs: number): Promise<Signaling> {
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, rejectUnauthorized: !tls.insecure, ...(tls.ca ? { ca: tls.ca } : {}) });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Signaling(ws)));
      ws.once('error', (e) => reject(new Error(`the signaling socket did not open: ${e.message}`)));
      ws.once('unexpected-response', (_req, res) => {
        reject(new Error(`the signaling socket was refused with HTTP ${res.statusCode}`));
        ws.terminate();
      });
    });
  }

  get open(): boolean {
    return !this.#closed && this.#ws.readyState === WebSocket.OPEN;
  }

  send(m: Record<string, unknown>): void {
    if (this.open) this.#ws.send(JSON.stringify(m));
  }

  /** Takes the first kept message that `match` accepts, waiting up to `timeoutMs`; undefined when none came. */
  async take(match: (m: Message) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<Message | undefined> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const i = this.#inbox.findIndex(match);
      if (i >= 0) return this.#inbox.splice(i, 1)[0];
      const left = deadline - performance.now();
      if (left <= 0 || this.#closed || signal?.aborted) return undefined;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.#waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  close(): void {
    this.#closed = true;
    this.#wake();
    if (this.#ws.readyState === WebSocket.OPEN || this.#ws.readyState === WebSocket.CONNECTING) this.#ws.close();
  }
}
