// A stand-in for httpbin.org as k6's examples read it: the echo endpoints answered in httpbin.org's own shapes (a
// query or form field given once is a string, given again a list; header names in Title-Case; json null unless the
// body is JSON), which go-httpbin gives differently (every value a list). Everything else (redirects, basic and
// digest auth, status codes) is go-httpbin's, reached through this server.
import { createServer as createHttp, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { closeAll, onFreePort } from './listen.js';

const ECHO = new Set(['/get', '/post', '/put', '/patch', '/delete', '/anything']);

/** httpbin.org's multi-dict: one value a string, several a list. */
function multi(pairs: Iterable<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

const titleCase = (name: string) =>
  name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('-');

function echo(req: IncomingMessage, body: Buffer, scheme: string): Record<string, unknown> {
  const url = new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'httpbin.org'}`);
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [titleCase(k), Array.isArray(v) ? v.join(',') : String(v)]));
  const type = String(req.headers['content-type'] ?? '');
  const text = body.toString('utf8');
  const isForm = type.startsWith('application/x-www-form-urlencoded');
  let json: unknown = null;
  if (type.includes('json'))
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  return {
    args: multi(url.searchParams),
    ...(req.method === 'GET' ? {} : { data: isForm ? '' : text, files: {}, form: isForm ? multi(new URLSearchParams(text)) : {}, json }),
    headers,
    origin: '127.0.0.1',
    url: url.href,
  };
}

function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function answer(req: IncomingMessage, res: ServerResponse, body: Buffer, scheme: string, upstream: number): unknown {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const json = (v: unknown) => {
    const text = `${JSON.stringify(v, null, 2)}\n`;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (ECHO.has(path) || path.startsWith('/anything/')) return json(echo(req, body, scheme));
  if (path === '/cookies') return json({ cookies: cookies(req) });
  if (path === '/cookies/set') {
    const set = [...new URL(req.url ?? '/', 'http://x').searchParams].map(([k, v]) => `${k}=${v}; Path=/`);
    res.writeHead(302, { Location: '/cookies', 'Set-Cookie': set, 'Content-Length': 0 });
    return void res.end();
  }
  const up = request({ host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers: req.headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  up.end(body);
}

export interface Httpbin {
  readonly httpPort: number;
  readonly httpsPort: number;
  close(): Promise<void>;
}

/** Starts the stand-in in front of go-httpbin at `upstream` (its port on 127.0.0.1). */
export async function startHttpbin(tls: { key: string; cert: string }, upstream: number): Promise<Httpbin> {
  const handle = (scheme: string) => (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks), scheme, upstream));
  };
  const plain = createHttp(handle('http'));
  const secure = createHttps({ key: tls.key, cert: tls.cert }, handle('https'));
  const httpPort = await onFreePort(plain);
  const httpsPort = await onFreePort(secure);
  return {
    httpPort,
    httpsPort,
    close: async () => {
      await closeAll([plain, secure]);
    },
  };
}
