// A stand-in for echo.websocket.org, the public echo k6's WebSocket examples call: wss on 127.0.0.1 (a free port), every
// message sent back as it came.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface Echo {
  readonly port: number;
  close(): Promise<void>;
}

export async function startEcho(tls: { key: string; cert: string }): Promise<Echo> {
  const server = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('echo');
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
  const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
  return {
    port,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
