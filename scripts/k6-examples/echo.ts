// A stand-in for echo.websocket.org, the public echo k6's WebSocket examples call: wss on 127.0.0.1 (a free port), every
// message sent back as it came.
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:https';
import { WebSocketServer } from 'ws';
import { closeAll, onFreePort } from './listen.js';

export interface Echo {
  /** wss. */
  readonly port: number;
  /** ws. */
  readonly plainPort: number;
  close(): Promise<void>;
}

export async function startEcho(tls: { key: string; cert: string }): Promise<Echo> {
  const server = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('echo');
  });
  const plain = createHttpServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('echo');
  });
  const sockets = [new WebSocketServer({ server }), new WebSocketServer({ server: plain })];
  for (const wss of sockets) wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
  const port = await onFreePort(server);
  const plainPort = await onFreePort(plain);
  return {
    port,
    plainPort,
    close: async () => {
      for (const wss of sockets) for (const c of wss.clients) c.terminate();
      await closeAll([server, plain]);
    },
  };
}
