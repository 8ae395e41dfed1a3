// A stand-in for quickpizza.grafana.com, the demo site k6's examples call, written from what those scripts ask of it
// (their URLs, selectors and checks), not from QuickPizza's source: the app page with its "Pizza, Please!" button and
// the /api it calls, the legacy test.k6.io pages (index, news, contacts, messages login, coin flip, pi) and the chat
// WebSocket. HTTP and HTTPS (h2 and http/1.1 by ALPN, as the real site offers) on 127.0.0.1, each on a free port.
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { type WebSocket, WebSocketServer } from 'ws';
import { closeAll, onFreePort } from './listen.js';

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

const page = (title: string, body: string) =>
  '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${title}</title><link rel="stylesheet" href="/test.k6.io/static/css/site.css">` +
  `<link rel="icon" href="/test.k6.io/static/favicon.ico"></head><body>${body}</body></html>`;

const LEGACY_INDEX = page(
  'QuickPizza Legacy',
  `<header><h1 class="title">QuickPizza Legacy</h1></header>
<p class="description">This is a replacement of the service that used to be at test.k6.io, kept for the examples that call it.</p>
<ul>
<li><a href="/news.php">/news.php</a></li>
<li><a href="/contacts.php">/contacts.php</a></li>
<li><a href="/my_messages.php">/my_messages.php</a></li>
<li><a href="/flip_coin.php">/flip_coin.php</a></li>
<li><a href="/pi.php?decimals=3">/pi.php</a></li>
</ul>
<script src="/test.k6.io/static/js/prisms.js"></script>`,
);

const APP = page(
  'QuickPizza',
  `<h1>QuickPizza</h1><p>Looking to break out of your pizza routine?</p>
<img src="/images/pizza.png" alt="pizza" width="10" height="10">
<button id="pizza">Pizza, Please!</button><div id="recommendation"></div>
<script>
fetch('/api/tools').then((r) => r.json()).catch(() => null);
document.getElementById('pizza').addEventListener('click', async () => {
  const r = await fetch('/api/pizza', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ maxCaloriesPerSlice: 1000 }) });
  const p = await r.json();
  document.getElementById('recommendation').innerHTML = '<p>Name: ' + p.pizza.name + '</p>';
});
</script>`,
);

const LOGIN_FORM = page(
  'My messages',
  `<h2>Unauthorized</h2><form method="post" action="/my_messages.php">
<input type="text" name="login"><input type="password" name="password"><input type="hidden" name="csrftoken" value="standin">
<input type="submit" value="Go!"></form>`,
);

const flipPage = (bet: string | null) =>
  page(
    'Flip a coin',
    `<form method="get" action="/flip_coin.php"><input type="hidden" name="bet" value="heads"><input type="submit" value="Bet on heads!"></form>
<form method="get" action="/flip_coin.php"><input type="hidden" name="bet" value="tails"><input type="submit" value="Bet on tails!"></form>
${bet ? `<p>Your bet: ${bet}.</p>` : ''}`,
  );

/** pi to `decimals` places (at most 15), as text. */
const pi = (decimals: number) => Math.PI.toFixed(Math.min(15, Math.max(0, decimals)));

let pizzas = 0;

function send(res: Res, status: number, body: string | Buffer, type: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}
const html = (res: Res, body: string, headers: Record<string, string | string[]> = {}) => send(res, 200, body, 'text/html; charset=utf-8', headers);
const json = (res: Res, status: number, v: unknown) => send(res, status, JSON.stringify(v), 'application/json');

function read(req: Req): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

async function answer(req: Req, res: Res): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://quickpizza.grafana.com');
  const path = url.pathname.replace(/^\/test\.k6\.io(?=\/)/, '');
  const method = req.method ?? 'GET';
  const body = await read(req);
  if (url.pathname === '/') return html(res, APP);
  if (path === '/' || url.pathname === '/test.k6.io') return html(res, LEGACY_INDEX);
  if (path === '/static/css/site.css') return send(res, 200, 'body { font-family: sans-serif; }', 'text/css');
  if (path === '/static/js/prisms.js') return send(res, 200, '/* prisms */', 'application/javascript');
  if (path === '/static/favicon.ico') return send(res, 200, Buffer.from([0, 0, 1, 0]), 'image/x-icon');
  if (url.pathname === '/images/pizza.png') return send(res, 200, Buffer.from('89504e47', 'hex'), 'image/png');
  if (path === '/pi.php') return send(res, 200, pi(Number(url.searchParams.get('decimals') ?? 2)), 'text/plain; charset=utf-8');
  if (path === '/news.php') return html(res, page('News', '<h1>In the news</h1><p>Nothing new today.</p>'));
  if (path === '/contacts.php') return html(res, page('Contacts', '<h3>Contact us</h3><p>pizza@example.com</p>'));
  if (path === '/flip_coin.php') return html(res, flipPage(url.searchParams.get('bet')));
  if (path === '/my_messages.php') {
    if (method !== 'POST') return html(res, LOGIN_FORM);
    const form = new URLSearchParams(body);
    if (form.get('login') === 'admin' && form.get('password') === '123')
      return html(res, page('My messages', '<h2>Welcome, admin!</h2>'), { 'Set-Cookie': ['AWSALB=standin; Path=/', 'sid=admin; Path=/; HttpOnly'] });
    return html(res, LOGIN_FORM);
  }
  if (url.pathname === '/api/tools') return json(res, 200, { tools: ['knife', 'pizza cutter', 'scissors'] });
  if (url.pathname === '/api/names') return json(res, 200, { names: ['Margherita', 'Marinara'] });
  if (url.pathname === '/api/pizza' && method === 'POST') {
    let asked: { customName?: string } = {};
    try {
      asked = JSON.parse(body || '{}');
    } catch {
      return json(res, 400, { error: 'invalid JSON' });
    }
    pizzas += 1;
    return json(res, 200, { pizza: { id: pizzas, name: asked.customName ?? 'Stand-in Special', ingredients: [{ name: 'Mozzarella' }] }, calories: 900 });
  }
  const rating = /^\/api\/ratings\/(\d+)$/.exec(url.pathname);
  if (rating) return json(res, 200, { id: Number(rating[1]), stars: 5, pizza_id: 1 });
  if (url.pathname === '/api/ratings')
    return json(res, method === 'POST' ? 201 : 200, method === 'POST' ? { id: 1, ...JSON.parse(body || '{}') } : { ratings: [] });
  send(res, 404, 'not found', 'text/plain');
}

/** The chat the WebSocket examples join: SET_NAME, SAY (broadcast as CHAT_MSG), LEAVE. */
function chat(wss: WebSocketServer): void {
  const names = new Map<WebSocket, string>();
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      let msg: { event?: string; new_name?: string; message?: string };
      try {
        msg = JSON.parse(String(data));
      } catch {
        ws.send(JSON.stringify({ event: 'ERROR', message: 'not JSON' }));
        return;
      }
      if (msg.event === 'SET_NAME') names.set(ws, String(msg.new_name));
      else if (msg.event === 'SAY')
        for (const c of wss.clients) c.send(JSON.stringify({ event: 'CHAT_MSG', user: names.get(ws) ?? 'anonymous', message: msg.message }));
      else if (msg.event === 'LEAVE') {
        for (const c of wss.clients) if (c !== ws) c.send(JSON.stringify({ event: 'USER_LEFT', user: names.get(ws), message: 'left' }));
        ws.close();
      }
    });
  });
}

export interface QuickPizza {
  readonly httpPort: number;
  readonly httpsPort: number;
  close(): Promise<void>;
}

/** Starts the stand-in with the certificate and key given (a certificate for quickpizza.grafana.com). */
export async function startQuickPizza(tls: { key: string; cert: string }): Promise<QuickPizza> {
  const handle = (req: Req, res: Res) => {
    answer(req, res).catch(() => send(res, 500, 'stand-in error', 'text/plain'));
  };
  const plain = createHttp(handle);
  const secure = createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handle);
  for (const server of [plain, secure]) {
    const wss = new WebSocketServer({ noServer: true });
    chat(wss);
    server.on('upgrade', (req: IncomingMessage, socket, head) => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/ws') return socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    });
  }
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
