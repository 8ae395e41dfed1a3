import net from 'node:net';

/** How a delay proxy delays: the round trip it adds and its jitter, both in milliseconds. */
export interface DelaySpec {
  /** The round trip added: each chunk waits half of it each way, and a new connection waits a whole one to open. */
  readonly rttMs: number;
  /** Each one-way wait is drawn uniformly within ± half of this around half the round trip. */
  readonly jitterMs?: number;
  /** Draws in [0, 1); seeded in tests and benchmarks so a run can be repeated. */
  readonly random?: () => number;
}

/** A running delay proxy in front of one upstream `host:port`. */
export interface DelayProxy {
  /** The loopback port clients connect to instead of the upstream's. */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * One direction of a connection: chunks leave in the order they came, each no earlier than its own due time. A chunk
 * whose draw is shorter than the one before it waits behind it, as TCP's in-order delivery makes it wait.
 */
class DelayedPipe {
  readonly #queue: { due: number; chunk: Buffer }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #ending = false;
  constructor(
    private readonly to: net.Socket,
    private readonly draw: () => number,
    private readonly opensAt = 0,
  ) {}

  push(chunk: Buffer): void {
    this.#queue.push({ due: Math.max(Date.now(), this.opensAt) + this.draw(), chunk });
    this.#arm();
  }

  /** The far side ended: end this side once everything queued before it has left. */
  end(): void {
    this.#ending = true;
    this.#arm();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#queue.length = 0;
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    const head = this.#queue[0];
    if (!head) {
      if (this.#ending && !this.to.destroyed) this.to.end();
      return;
    }
    this.#timer = setTimeout(() => this.#flush(), Math.max(0, head.due - Date.now()));
  }

  #flush(): void {
    this.#timer = undefined;
    const now = Date.now();
    while (this.#queue.length > 0 && (this.#queue[0]?.due ?? 0) <= now) {
      const next = this.#queue.shift();
      if (next && !this.to.destroyed) this.to.write(next.chunk);
    }
    this.#arm();
  }
}

/** Half the round trip, with its jitter, never negative. */
function oneWay(spec: DelaySpec): () => number {
  const random = spec.random ?? Math.random;
  const jitter = spec.jitterMs ?? 0;
  return () => Math.max(0, spec.rttMs / 2 + (random() - 0.5) * jitter);
}

/**
 * Starts a TCP proxy on a free loopback port that adds a round trip to every connection to `host:port`: bytes pass
 * unread (HTTP, WebSocket and TLS alike), each chunk delayed by half the round trip each way, in the order it came.
 *
 * @example
 * const proxy = await startDelayProxy('127.0.0.1', 8443, { rttMs: 100, jitterMs: 40 });
 * // https://127.0.0.1:${proxy.port} now answers as 8443 does, 100 ms ± 20 ms further away
 * await proxy.close();
 */
export async function startDelayProxy(host: string, port: number, spec: DelaySpec): Promise<DelayProxy> {
  const draw = oneWay(spec);
  const sockets = new Set<net.Socket>();
  // Half-open both ways: a side that ends its writing may still read what is on its way to it, as over a real network.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect({ host, port, allowHalfOpen: true });
    sockets.add(client).add(upstream);
    // A connection opens after a round trip (SYN, SYN-ACK): a client's first bytes leave then, and arrive half one later.
    const up = new DelayedPipe(upstream, draw, Date.now() + spec.rttMs);
    const down = new DelayedPipe(client, draw);
    client.on('data', (c: Buffer) => up.push(c));
    upstream.on('data', (c: Buffer) => down.push(c));
    client.on('end', () => up.end());
    upstream.on('end', () => down.end());
    // A reset on either side resets the other; a side that closed cleanly leaves the other to finish what it has queued.
    const reset = () => {
      up.stop();
      down.stop();
      client.destroy();
      upstream.destroy();
    };
    client.on('error', reset).on('close', (hadError) => {
      down.stop();
      sockets.delete(client);
      if (hadError) reset();
    });
    upstream.on('error', reset).on('close', (hadError) => {
      up.stop();
      sockets.delete(upstream);
      if (hadError) reset();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same URL through a proxy: scheme and path kept, host and port replaced by the proxy's loopback port. A TLS
 * client still checks the certificate against the name it connects to, so the upstream must be served for 127.0.0.1.
 */
export function throughProxy(url: string, proxy: DelayProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
}
