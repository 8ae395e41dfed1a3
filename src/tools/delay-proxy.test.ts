import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { type DelayProxy, startDelayProxy, throughProxy } from './delay-proxy.js';

/** A seeded draw (mulberry32), so the jitter of a run can be repeated. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** An echo server on loopback, and a proxy in front of it. */
async function echoBehind(rttMs: number, jitterMs: number): Promise<{ proxy: DelayProxy }> {
  const server = net.createServer((s) => s.pipe(s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise((r) => server.close(r)));
  const proxy = await startDelayProxy('127.0.0.1', (server.address() as net.AddressInfo).port, { rttMs, jitterMs, random: seeded(7) });
  closers.push(() => proxy.close());
  return { proxy };
}

describe('the delay proxy', () => {
  it('adds at least the round trip less its jitter to a request and its answer, and a round trip to open', async () => {
    // A lower bound: a busy machine can only make the answer later, never earlier.
    const { proxy } = await echoBehind(200, 40);
    const started = performance.now();
    const socket = net.connect(proxy.port, '127.0.0.1');
    closers.push(() => void socket.destroy());
    socket.write('ping');
    const [answer] = (await once(socket, 'data')) as [Buffer];
    expect(answer.toString()).toBe('ping');
    // Opening (one round trip) and the exchange (one more), each shortened by at most the jitter.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 200 - 2 * 40);
  });

  it('keeps byte order when the jitter is larger than the gap between chunks', async () => {
    const { proxy } = await echoBehind(20, 40);
    const socket = net.connect(proxy.port, '127.0.0.1');
    closers.push(() => void socket.destroy());
    await once(socket, 'connect');
    const sent = Array.from({ length: 200 }, (_, i) => `${i};`).join('');
    let received = '';
    const done = new Promise<void>((resolve) =>
      socket.on('data', (c: Buffer) => {
        received += c.toString();
        if (received.length >= sent.length) resolve();
      }),
    );
    for (let i = 0; i < 200; i++) {
      socket.write(`${i};`);
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await done;
    expect(received).toBe(sent);
  });

  it('passes a WebSocket through, frames in order, and ends it when the server ends it', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    closers.push(() => new Promise((r) => wss.close(r)));
    wss.on('connection', (ws) => {
      for (let i = 0; i < 50; i++) ws.send(String(i));
      ws.close(1000, 'done');
    });
    const proxy = await startDelayProxy('127.0.0.1', (wss.address() as net.AddressInfo).port, { rttMs: 10, jitterMs: 20, random: seeded(3) });
    closers.push(() => proxy.close());
    const ws = new WebSocket(throughProxy(`ws://localhost:${(wss.address() as net.AddressInfo).port}/socket`, proxy));
    const frames: string[] = [];
    ws.on('message', (m) => frames.push(m.toString()));
    const [code] = (await once(ws, 'close')) as [number];
    expect(code).toBe(1000);
    expect(frames).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
  });

  it('keeps the scheme and path of a URL and points it at the proxy', () => {
    const proxy = { port: 4321, close: async () => {} };
    expect(throughProxy('https://api.example.com:8443/v1', proxy)).toBe('https://127.0.0.1:4321/v1');
    expect(throughProxy('http://127.0.0.1:9000', proxy)).toBe('http://127.0.0.1:4321');
  });
});
