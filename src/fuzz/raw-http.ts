import { connect } from 'node:net';

/** What one raw HTTP exchange came to. */
export interface RawAnswer {
  /** The status of the answer, or null when the connection ended without one. */
  readonly status: number | null;
  /** From the first byte written to the first byte of the answer (or to the end, when there was none). */
  readonly ms: number;
  /** Set when no answer came within the time limit. */
  readonly timedOut: boolean;
}

/**
 * Writes `bytes` on a fresh TCP connection to 127.0.0.1:`port` and reads the answer's status line. Raw bytes, so
 * requests an HTTP client would refuse to send (control bytes, broken framing) reach the server as they are.
 *
 * @example
 * const a = await rawExchange(port, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
 */
export function rawExchange(port: number, bytes: Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let firstAt: number | undefined;
    let head = '';
    let done = false;
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: m ? Number(m[1]) : null, ms: (firstAt ?? performance.now()) - t0, timedOut });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      firstAt ??= performance.now();
      if (head.length < 64) head += chunk.toString('latin1', 0, 64);
      // The status line is all that is judged: leave once it is in, so a long answer body costs nothing.
      if (/^HTTP\/1\.[01] \d{3}/.test(head)) finish(false);
    });
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
    socket.write(bytes);
  });
}
