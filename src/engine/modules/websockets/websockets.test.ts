import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { makeTlsMaterial, type TlsMaterial } from '../../../reference-target/tls.js';
import { type TestVu, testVu } from '../test-vu.js';
import { BAD_HANDSHAKE, type WsEvent, type WsParams, websocketsModule } from './websockets.js';

interface Ws {
  readonly readyState: number;
  readonly url: string;
  binaryType: string;
  onopen: ((e: WsEvent) => void) | null;
  onmessage: ((e: WsEvent) => void) | null;
  onclose: ((e: WsEvent) => void) | null;
  addEventListener(type: string, fn: (e: WsEvent) => void): void;
  send(d: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  ping(): void;
}
type WsClass = new (url: string, protocols?: null, params?: WsParams) => Ws;

let server: http.Server;
let tlsServer: https.Server;
let base = '';
let tlsBase = '';
let refused = '';
let material: TlsMaterial;
const sockets = new Set<Socket>();

/** The test server: greets, echoes, closes on "close-me", pings on "ping-me"; /full refuses with 429. */
function attach(srv: http.Server): void {
  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws) => {
    ws.send('welcome');
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      if (text === 'close-me') ws.close(4000, 'bye');
      else if (text === 'ping-me') ws.ping();
      else ws.send(data, { binary: isBinary });
    });
  });
  srv.on('upgrade', (req, socket, head) => {
    sockets.add(socket as Socket);
    if (req.url === '/full') {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
}

beforeAll(async () => {
  server = http.createServer();
  attach(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  material = await makeTlsMaterial(1, ['127.0.0.1', 'localhost']);
  tlsServer = https.createServer({ key: material.key, cert: material.cert });
  attach(tlsServer);
  tlsServer.listen(0, '127.0.0.1');
  await once(tlsServer, 'listening');
  tlsBase = `wss://localhost:${(tlsServer.address() as AddressInfo).port}`;
  const free = http.createServer();
  free.listen(0, '127.0.0.1');
  await once(free, 'listening');
  refused = `ws://127.0.0.1:${(free.address() as AddressInfo).port}/`;
  await new Promise((r) => free.close(r));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => tlsServer.close(r))]);
});

function setup(o: Parameters<typeof testVu>[0] = {}): { vu: TestVu; WebSocket: WsClass } {
  const vu = testVu(o);
  return { vu, WebSocket: websocketsModule(vu).WebSocket as WsClass };
}

/** Resolves with the first event of `type` on `ws`. */
const next = (ws: Ws, type: string) => new Promise<WsEvent>((resolve) => ws.addEventListener(type, resolve));

describe('k6/websockets', () => {
  // "This experimental API implements the browser's WebSocket API" (/javascript-api/k6-websockets/) "ws_sessions:
  // Total number of started WebSocket sessions." "ws_connecting: Total duration for the WebSocket connection request."
  // (/using-k6/metrics/reference/)
  it('opens with a 101, counting the session and timing the handshake', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/chat`, null, { tags: { op: 'chat' } });
    expect(ws.readyState).toBe(0);
    let opened = false;
    ws.onopen = () => {
      opened = true;
    };
    await next(ws, 'open');
    expect(opened).toBe(true);
    expect(ws.readyState).toBe(1);
    const [session] = vu.sink.of('ws_sessions');
    expect(session?.tags).toMatchObject({ status: '101', url: `${base}/chat`, op: 'chat', scenario: 'default' });
    expect(vu.sink.of('ws_connecting')[0]?.value).toBeGreaterThan(0);
    ws.close();
    await vu.settled();
    await vu.close();
  });

  // "ws_msgs_sent: Total number of messages sent" "ws_msgs_received: Total number of messages received"
  // (/using-k6/metrics/reference/)
  it('counts messages both ways and delivers text as strings and binary as ArrayBuffers', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/echo`);
    const got: WsEvent[] = [];
    ws.onmessage = (e) => got.push(e);
    await next(ws, 'open');
    ws.send('one');
    ws.send(new Uint8Array([1, 2, 3]));
    ws.send(new Uint8Array([9, 8]).buffer);
    while (got.length < 4) await next(ws, 'message');
    expect(got[0]).toMatchObject({ type: 'message', data: 'welcome' });
    expect(typeof got[0]?.timestamp).toBe('number');
    expect(Math.abs((got[0]?.timestamp ?? 0) - Date.now())).toBeLessThan(5_000);
    expect(got[1]?.data).toBe('one');
    expect([...new Uint8Array(got[2]?.data as ArrayBuffer)]).toEqual([1, 2, 3]);
    expect([...new Uint8Array(got[3]?.data as ArrayBuffer)]).toEqual([9, 8]);
    expect(vu.sink.sum('ws_msgs_sent')).toBe(3);
    expect(vu.sink.sum('ws_msgs_received')).toBe(4);
    ws.close();
    await vu.settled();
    expect(vu.sink.sum('data_sent')).toBeGreaterThan(0);
    expect(vu.sink.sum('data_received')).toBeGreaterThan(0);
    await vu.close();
  });

  // "ws_session_duration: Duration of the WebSocket session. Time between the start of the connection and the end of
  // the VU execution." (/using-k6/metrics/reference/)
  it('holds the iteration while the socket is open and releases it on close', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/echo`);
    await next(ws, 'open');
    expect(vu.pending()).toBe(1);
    const closed = next(ws, 'close');
    ws.close(1000, 'done');
    expect(ws.readyState).toBe(2);
    const e = await closed;
    expect(e.code).toBe(1000);
    expect(ws.readyState).toBe(3);
    expect(vu.pending()).toBe(0);
    expect(vu.sink.of('ws_session_duration')).toHaveLength(1);
    // The server closing ends it too.
    const other = new WebSocket(`${base}/echo`);
    await next(other, 'open');
    const byServer = next(other, 'close');
    other.send('close-me');
    expect(await byServer).toMatchObject({ code: 4000, reason: 'bye' });
    await vu.settled();
    await vu.close();
  });

  // k6/websockets follows the browser WebSocket API; the WebSocket standard: a message received while the ready state is
  // not OPEN is not delivered. A socket the script closed (the messaging scenario's "drop") then hears nothing more, so
  // what it resumes from its cursor is never counted twice.
  it('delivers no message that arrives after the script called close', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/echo`);
    const got: unknown[] = [];
    ws.addEventListener('message', (e: WsEvent) => got.push(e.data));
    await next(ws, 'open');
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual(['welcome']);
    // The echo of this message is on its way when close() is called.
    ws.send('late');
    ws.close();
    await next(ws, 'close');
    expect(got).toEqual(['welcome']);
    await vu.settled();
    await vu.close();
  });

  // "ws_ping: Duration between a ping request and its pong reception" (/using-k6/metrics/reference/)
  it('times a ping to its pong and reports the server pings', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/echo`);
    await next(ws, 'open');
    const pong = next(ws, 'pong');
    ws.ping();
    await pong;
    expect(vu.sink.of('ws_ping')).toHaveLength(1);
    const ping = next(ws, 'ping');
    ws.send('ping-me');
    await ping;
    ws.close();
    await vu.settled();
    await vu.close();
  });

  it('answers a refused handshake with a bad-handshake error, no open, and ws_sessions tagged with the status', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/full`, null, { tags: { op: 'over_cap' } });
    const events: string[] = [];
    let error = '';
    ws.addEventListener('open', () => events.push('open'));
    ws.addEventListener('error', (e) => {
      events.push('error');
      error = e.error ?? '';
    });
    await next(ws, 'close');
    expect(events).toEqual(['error']);
    expect(error).toBe(BAD_HANDSHAKE);
    expect(ws.readyState).toBe(3);
    expect(vu.sink.of('ws_sessions', { status: '429', op: 'over_cap' })).toHaveLength(1);
    expect(vu.sink.of('ws_sessions')).toHaveLength(1);
    expect(vu.pending()).toBe(0);
    await vu.close();
  });

  it('reports a connection that never got an answer as an error with status 0', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(refused);
    const err = next(ws, 'error');
    await next(ws, 'close');
    expect((await err).error).toMatch(/ECONNREFUSED/);
    expect(vu.sink.of('ws_sessions', { status: '0' })).toHaveLength(1);
    await vu.close();
  });

  it('closes the socket when the iteration is interrupted', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/echo`);
    await next(ws, 'open');
    const closed = next(ws, 'close');
    vu.interrupt();
    await closed;
    expect(vu.pending()).toBe(0);
    await vu.close();
  });

  it('hands what a listener throws to the VU, and refuses blob binaryType', async () => {
    const { vu, WebSocket } = setup();
    const ws = new WebSocket(`${base}/echo`);
    ws.onopen = () => {
      throw new Error('boom');
    };
    await next(ws, 'open');
    expect((vu.errors[0] as Error).message).toBe('boom');
    expect(() => {
      ws.binaryType = 'blob';
    }).toThrow(/arraybuffer/);
    expect(ws.binaryType).toBe('arraybuffer');
    ws.close();
    await vu.settled();
    await vu.close();
  });

  it('connects over TLS with the engine CA, and fails without it', async () => {
    const { vu, WebSocket } = setup({ tls: { ca: material.ca, insecure: false } });
    const ws = new WebSocket(`${tlsBase}/echo`);
    const msg = next(ws, 'message');
    await next(ws, 'open');
    expect((await msg).data).toBe('welcome');
    ws.close();
    await vu.settled();
    const untrusted = setup();
    const bad = new untrusted.WebSocket(`${tlsBase}/echo`);
    const err = next(bad, 'error');
    await next(bad, 'close');
    expect((await err).error).toMatch(/certificate/);
    await vu.close();
    await untrusted.vu.close();
  });
});
