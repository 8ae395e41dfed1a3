// The corpus's local target: a small HTTP and WebSocket server on 127.0.0.1 (a free port), in the spirit of the
// QuickPizza and httpbin endpoints k6's examples call, that records every request it answers so a test can judge a
// script by what reached the wire, not only by what the engine reports.
//
//   /                 200, a small HTML page
//   /status/:code     that status (200 to 599; 204 and 304 without a body)
//   /json             GET: a fixed JSON document; any other method: the JSON body echoed back
//   /form             the x-www-form-urlencoded body as JSON
//   /anything[/…]     what was asked, as JSON: method, path, query, headers, body
//   /delay?ms=N       200 after N ms (at most 10 s)
//   /digest-auth/auth/:user/:password   httpbin's: 401 with a Digest challenge (MD5, qop=auth) until the request
//                     carries an Authorization that answers it for that user and password, then 200
//   /ws               a WebSocket that echoes every message
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/** One request the target answered. */
export interface Hit {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export interface CorpusTarget {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  readonly url: string;
  /** Every HTTP request, in the order they ended (WebSocket handshakes are in `sockets`). */
  readonly hits: Hit[];
  /** WebSocket sessions opened, and messages echoed. */
  readonly sockets: { opened: number; messages: number };
  /** The hits whose path is `path` (and whose method is `method`, when given). */
  count(path: string, method?: string): number;
  close(): Promise<void>;
}

export const HOME_PAGE = '<!DOCTYPE html><html><head><title>dialtone corpus target</title></head><body><h1>Collection of simple web-pages</h1></body></html>';
export const JSON_DOC = {
  name: 'corpus',
  crocodiles: [
    { id: 1, name: 'Bert' },
    { id: 2, name: 'Ernie' },
  ],
};

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain; charset=utf-8'): void {
  // 204 and 304 answers have no body, and a 204 no Content-Length (RFC 9110, 8.6).
  if (status === 204 || status === 304) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: ServerResponse, status: number, v: unknown) => send(res, status, JSON.stringify(v), 'application/json');

const DIGEST_REALM = 'corpus@dialtone';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/**
 * The server's half of RFC 2617's Digest with qop=auth, written from the RFC apart from the engine's client: a request
 * whose Authorization answers a nonce this target gave, for `user` and `password`, is let in.
 */
function digestAnswer(req: IncomingMessage, res: ServerResponse, nonces: Set<string>, user: string, password: string): void {
  const auth = req.headers.authorization ?? '';
  const p: Record<string, string> = {};
  for (const m of auth.matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]+))/g)) p[m[1] as string] = m[2] ?? (m[3] as string);
  if (auth.startsWith('Digest ') && p.nonce && nonces.has(p.nonce) && p.username === user && p.uri === req.url && p.qop === 'auth') {
    const ha1 = md5(`${user}:${DIGEST_REALM}:${password}`);
    const ha2 = md5(`${req.method}:${p.uri}`);
    if (p.response === md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:auth:${ha2}`)) {
      json(res, 200, { authenticated: true, user });
      return;
    }
  }
  const nonce = randomBytes(16).toString('hex');
  nonces.add(nonce);
  res.setHeader('WWW-Authenticate', `Digest realm="${DIGEST_REALM}", qop="auth", nonce="${nonce}", opaque="${md5(nonce)}", algorithm=MD5`);
  send(res, 401, 'unauthorized');
}

function answer(req: IncomingMessage, res: ServerResponse, hit: Hit, nonces: Set<string>): void {
  const { method, path, query, body } = hit;
  const status = /^\/status\/(\d{3})$/.exec(path);
  const digest = /^\/digest-auth\/auth\/([^/]+)\/([^/]+)$/.exec(path);
  if (path === '/') send(res, 200, HOME_PAGE, 'text/html; charset=utf-8');
  else if (digest) digestAnswer(req, res, nonces, digest[1] as string, digest[2] as string);
  else if (status) {
    const code = Number(status[1]);
    if (code >= 200 && code <= 599) send(res, code, `status ${code}`);
    else send(res, 400, 'status out of range');
  } else if (path === '/json') {
    if (method === 'GET' || method === 'HEAD') json(res, 200, JSON_DOC);
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8') || 'null');
      } catch {
        json(res, 400, { error: 'the body is not JSON' });
        return;
      }
      json(res, 200, parsed);
    }
  } else if (path === '/form') json(res, 200, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
  else if (path === '/anything' || path.startsWith('/anything/'))
    json(res, 200, { method, path, query: Object.fromEntries(query), headers: req.headers, body: body.toString('utf8') });
  else if (path === '/delay') {
    const ms = Math.min(10_000, Math.max(0, Number(query.get('ms')) || 0));
    setTimeout(() => send(res, 200, `waited ${ms} ms`), ms);
  } else send(res, 404, 'not found');
}

/**
 * Starts the target on 127.0.0.1, a port the system picks.
 *
 * @example
 * const t = await startTarget();
 * await fetch(`${t.url}/status/204`);
 * t.count('/status/204'); // 1
 * await t.close();
 */
export async function startTarget(): Promise<CorpusTarget> {
  const hits: Hit[] = [];
  const sockets = { opened: 0, messages: 0 };
  /** The Digest nonces this target gave. */
  const nonces = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://target');
      const hit: Hit = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      hits.push(hit);
      answer(req, res, hit, nonces);
    });
  });
  server.keepAliveTimeout = 30_000;
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://target').pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.opened++;
      ws.on('message', (data, isBinary) => {
        sockets.messages++;
        ws.send(data, { binary: isBinary });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    sockets,
    count: (path, method) => hits.filter((h) => h.path === path && (method === undefined || h.method === method)).length,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on: one the system just gave out and took back. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
