import { once } from 'node:events';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTlsMaterial, type TlsMaterial } from '../../../reference-target/tls.js';
import { type TestVu, testVu } from '../test-vu.js';
import { type ExpectedStatuses, type HttpResponse, type HttpURL, httpModule, useHtmlParser } from './http.js';

interface HttpExports {
  asyncRequest(method: string, url: string | HttpURL, body?: unknown, params?: Record<string, unknown> | null): Promise<HttpResponse>;
  expectedStatuses(...a: unknown[]): ExpectedStatuses;
  setResponseCallback(cb: ExpectedStatuses | null): void;
  url(strings: TemplateStringsArray, ...args: unknown[]): HttpURL;
  [name: string]: unknown;
}

/** A test server's routes: what the k6 module is checked against. */
function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const u = new URL(req.url ?? '/', 'http://x');
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const p = u.pathname;
    if (p === '/ok') {
      res.end('hello');
    } else if (p.startsWith('/status/')) {
      res.statusCode = Number(p.slice('/status/'.length));
      res.end();
    } else if (p === '/json') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ conversations: [{ id: 'c1' }, { id: 'c2' }], cursor: 'abc', nested: { deep: [1, 2, 3] } }));
    } else if (p === '/not-json') {
      res.end('{nope');
    } else if (p === '/echo') {
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Set-Cookie', ['a=1; Path=/; HttpOnly', 'b=2']);
      res.setHeader('X-Multi', ['x', 'y']);
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    } else if (p.startsWith('/redirect/')) {
      const n = Number(p.slice('/redirect/'.length));
      res.statusCode = 302;
      res.setHeader('Location', n > 1 ? `/redirect/${n - 1}` : '/ok');
      res.end();
    } else if (p === '/see-other') {
      res.statusCode = 303;
      res.setHeader('Location', '/echo');
      res.end();
    } else if (p === '/slow') {
      setTimeout(() => res.end('late'), 2_000).unref();
    } else if (p === '/page') {
      res.setHeader('Content-Type', 'text/html');
      res.end('<html><head><title>k6 page</title></head><body><a href="/next">next</a></body></html>');
    } else if (p === '/bytes') {
      res.end(Buffer.from([0, 1, 2, 250, 255]));
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
}

let server: http.Server;
let tlsServer: https.Server;
let base = '';
let tlsBase = '';
let refusedUrl = '';
let material: TlsMaterial;
const sockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = http.createServer(handler);
  server.on('connection', (s) => sockets.add(s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  material = await makeTlsMaterial(1, ['127.0.0.1', 'localhost']);
  tlsServer = https.createServer({ key: material.key, cert: material.cert }, handler);
  tlsServer.on('secureConnection', (s) => sockets.add(s));
  tlsServer.listen(0, '127.0.0.1');
  await once(tlsServer, 'listening');
  tlsBase = `https://localhost:${(tlsServer.address() as AddressInfo).port}`;
  // A port nobody listens on: bound, then closed.
  const free = http.createServer();
  free.listen(0, '127.0.0.1');
  await once(free, 'listening');
  refusedUrl = `http://127.0.0.1:${(free.address() as AddressInfo).port}/`;
  await new Promise((r) => free.close(r));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => tlsServer.close(r))]);
});

function setup(o: Parameters<typeof testVu>[0] = {}): { vu: TestVu; h: HttpExports } {
  const vu = testVu(o);
  return { vu, h: httpModule(vu) as HttpExports };
}

const HTTP_TRENDS = [
  'http_req_duration',
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
];

describe('k6/http asyncRequest', () => {
  // "http_req_duration: Total time for the request. It's equal to `http_req_sending + http_req_waiting +
  // http_req_receiving` (i.e. how long did the remote server take to process the request and respond, without the
  // initial DNS lookup/connection times)." (/using-k6/metrics/reference/)
  it('reports timings whose duration is sending + waiting + receiving, and emits each as a sample', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('GET', `${base}/ok`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('hello');
    const t = res.timings;
    expect(t.duration).toBeCloseTo(t.sending + t.waiting + t.receiving, 9);
    expect(t.waiting).toBeGreaterThan(0);
    for (const v of Object.values(t)) expect(v).toBeGreaterThanOrEqual(0);
    expect(vu.sink.of('http_reqs')).toHaveLength(1);
    for (const m of HTTP_TRENDS) expect(vu.sink.of(m)).toHaveLength(1);
    expect(vu.sink.of('http_req_duration')[0]?.value).toBe(t.duration);
    expect(vu.sink.of('http_req_waiting')[0]?.value).toBe(t.waiting);
    expect(vu.sink.sum('data_sent')).toBeGreaterThan(0);
    expect(vu.sink.sum('data_received')).toBeGreaterThan(0);
    // All samples of one request share one tag object.
    const tagObjects = new Set(vu.sink.samples.map((s) => s.tags));
    expect(tagObjects.size).toBe(1);
    await vu.settled();
    await vu.close();
  });

  // "http_req_connecting: Time spent establishing TCP connection to the remote host." (/using-k6/metrics/reference/)
  it('measures connecting on a new connection and 0 on a kept-alive one', async () => {
    const { vu, h } = setup();
    const first = await h.asyncRequest('GET', `${base}/ok`);
    const second = await h.asyncRequest('GET', `${base}/ok`);
    expect(first.timings.connecting).toBeGreaterThan(0);
    expect(second.timings.connecting).toBe(0);
    expect(second.timings.tls_handshaking).toBe(0);
    await vu.close();
  });

  // "By default requests with status codes between 200 and 399 are considered "expected"." "The result of this is that
  // requests will be tagged with `expected_response` `"true"` or `"false"` and `http_req_failed` will be emitted with
  // the reverse." (/javascript-api/k6-http/set-response-callback/)
  it('tags a 200 expected and a 404 not, and emits http_req_failed the other way round', async () => {
    const { vu, h } = setup();
    await h.asyncRequest('GET', `${base}/ok`);
    const missing = await h.asyncRequest('GET', `${base}/status/404`);
    expect(missing.status).toBe(404);
    expect(missing.status_text).toBe('404 Not Found');
    expect(missing.error).toBe('');
    expect(missing.error_code).toBe(1404);
    const failed = vu.sink.of('http_req_failed');
    expect(failed.map((s) => [s.tags.status, s.tags.expected_response, s.value])).toEqual([
      ['200', 'true', 0],
      ['404', 'false', 1],
    ]);
    expect(failed[1]?.tags.error_code).toBe('1404');
    await vu.close();
  });

  // "Setting the callback to `null` disables the tagging with `expected_response` and the emitting of
  // `http_req_failed`." "sets a responseCallback only for this request." (/javascript-api/k6-http/params/)
  it('follows custom expected statuses, per VU and per request, and null turns both off', async () => {
    const { vu, h } = setup();
    h.setResponseCallback(h.expectedStatuses(404, { min: 500, max: 502 }));
    await h.asyncRequest('GET', `${base}/status/404`);
    await h.asyncRequest('GET', `${base}/status/501`);
    await h.asyncRequest('GET', `${base}/ok`);
    await h.asyncRequest('GET', `${base}/ok`, null, { responseCallback: h.expectedStatuses(200) });
    expect(vu.sink.of('http_req_failed').map((s) => s.value)).toEqual([0, 0, 1, 0]);
    h.setResponseCallback(null);
    await h.asyncRequest('GET', `${base}/status/500`);
    expect(vu.sink.of('http_req_failed')).toHaveLength(4);
    expect(vu.sink.of('http_reqs').at(-1)?.tags.expected_response).toBeUndefined();
    expect(() => h.expectedStatuses('200')).toThrow(/expectedStatuses/);
    expect(() => h.asyncRequest('GET', `${base}/ok`, null, { responseCallback: () => true })).toThrow(/responseCallback/);
    await vu.close();
  });

  // "By default, requests report the name tag with the value of the request URL." (/using-k6/http-requests/)
  it('names a request by its URL unless tags.name or http.url says otherwise', async () => {
    const { vu, h } = setup();
    await h.asyncRequest('GET', `${base}/ok?x=1`);
    await h.asyncRequest('GET', `${base}/ok?x=2`, null, { tags: { name: 'ok', op: 'probe' } });
    const id = 7;
    await h.asyncRequest('GET', h.url`${base}/status/${200 + id}`);
    const tags = vu.sink.of('http_reqs').map((s) => s.tags);
    expect(tags[0]).toMatchObject({ name: `${base}/ok?x=1`, url: `${base}/ok?x=1`, method: 'GET', proto: 'HTTP/1.1', status: '200', scenario: 'default' });
    expect(tags[1]).toMatchObject({ name: 'ok', op: 'probe', url: `${base}/ok?x=2` });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholders k6 writes into the name tag.
    expect(tags[2]).toMatchObject({ name: '${}/status/${}', url: `${base}/status/207` });
    await vu.close();
  });

  it('reuses one frozen tag object for identical requests', async () => {
    const { vu, h } = setup();
    const params = { tags: { name: 'ok' } };
    await h.asyncRequest('GET', `${base}/ok`, null, params);
    await h.asyncRequest('GET', `${base}/ok`, null, params);
    const [a, b] = vu.sink.of('http_reqs').map((s) => s.tags);
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    await vu.close();
  });

  // "1212: Dial connection refused - the connection was refused by the other party on dial." (/javascript-api/error-codes/)
  it('answers a refused connection with status 0, its error and error_code, without throwing', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('GET', refusedUrl);
    expect(res.status).toBe(0);
    expect(res.error_code).toBe(1212);
    expect(res.error).toMatch(/connection refused/);
    expect(res.body).toBeNull();
    const [failed] = vu.sink.of('http_req_failed');
    expect(failed?.value).toBe(1);
    expect(failed?.tags).toMatchObject({ status: '0', error_code: '1212', expected_response: 'false' });
    expect(failed?.tags.error).toMatch(/connection refused/);
    expect(vu.warnings[0]).toMatch(/^Request Failed error=/);
    await vu.close();
  });

  // "Network errors … thrown (`throw:true`)" (options `throw`: "Throw error on failed HTTP request.", @types/k6)
  it('rejects on a network error when the throw option is set', async () => {
    const { vu, h } = setup({ options: { throw: true } });
    await expect(h.asyncRequest('GET', refusedUrl)).rejects.toThrow(/connection refused/);
    await vu.close();
  });

  // "Maximum time to wait for the request to complete. Default timeout is 60 seconds ("60s"). The type can also be a
  // number, in which case k6 interprets it as milliseconds" (/javascript-api/k6-http/params/) "1050: The HTTP request
  // has timed out." (/javascript-api/error-codes/)
  it('times a slow request out with error_code 1050', async () => {
    const { vu, h } = setup();
    const started = Date.now();
    const res = await h.asyncRequest('GET', `${base}/slow`, null, { timeout: '200ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(res.status).toBe(0);
    expect(res.error).toBe('request timeout');
    expect(res.error_code).toBe(1050);
    expect(res.timings.waiting).toBeGreaterThanOrEqual(150);
    const byNumber = await h.asyncRequest('GET', `${base}/slow`, null, { timeout: 100 });
    expect(byNumber.error_code).toBe(1050);
    // The connection the timeout cut is not reused: the next request works.
    expect((await h.asyncRequest('GET', `${base}/ok`)).status).toBe(200);
    await vu.close();
  });

  // "Parses the response body data as JSON and returns a JS object or array. This call caches the deserialized JSON
  // data, additional calls will return the cached data. An optional selector can be specified to extract a specific
  // part of the data" (/javascript-api/k6-http/response/response-json/)
  it('parses the body once and picks parts of it with GJSON selectors', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('GET', `${base}/json`);
    expect(res.json()).toBe(res.json());
    expect(res.json('cursor')).toBe('abc');
    expect(res.json('nested.deep.1')).toBe(2);
    expect(res.json('conversations.#')).toBe(2);
    expect(res.json('{ids:conversations.#.id|@tostr,count:conversations.#,cursor,next_offset}')).toEqual({ ids: '["c1","c2"]', count: 2, cursor: 'abc' });
    expect(res.json('missing.path')).toBeUndefined();
    const bad = await h.asyncRequest('GET', `${base}/not-json`);
    expect(bad.json()).toBeUndefined();
    // As in a thread whose script never loaded k6/html, whatever an earlier in-process run in this worker loaded.
    useHtmlParser(undefined);
    expect(() => res.html()).toThrow('k6/http: res.html() found no HTML parser (k6/html was not loaded for this script)');
    await vu.close();
  });

  it('gives canonical response headers, cookies and the request as sent', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('POST', `${base}/echo`, { b: 'x y', a: '1&2' }, { headers: { 'X-Test': 'yes' } });
    expect(res.headers['Content-Type']).toBe('application/json');
    expect(res.headers['X-Multi']).toBe('x, y');
    expect(res.cookies.a?.[0]).toMatchObject({ name: 'a', value: '1', path: '/', httpOnly: true });
    const echoed = res.json() as { method: string; headers: Record<string, string>; body: string };
    expect(echoed.method).toBe('POST');
    expect(echoed.headers['x-test']).toBe('yes');
    expect(echoed.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(echoed.headers['user-agent']).toMatch(/dialtone/);
    expect(echoed.body).toBe('a=1%262&b=x+y');
    expect(res.request.method).toBe('POST');
    expect(res.request.headers['X-Test']).toEqual(['yes']);
    expect(res.request.body).toBe('a=1%262&b=x+y');
    const bin = await h.asyncRequest('PUT', `${base}/echo`, new Uint8Array([104, 105]));
    expect((bin.json() as { body: string }).body).toBe('hi');
    const file = (h.file as (d: string, n: string, t: string) => unknown)('abc', 'a.txt', 'text/plain');
    const multi = (await h.asyncRequest('POST', `${base}/echo`, { f: file, x: '1' })).json() as { headers: Record<string, string>; body: string };
    expect(multi.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(multi.body).toContain('Content-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabc\r\n');
    expect(multi.body).toContain('name="x"\r\n\r\n1\r\n');
    await vu.close();
  });

  // "`binary`: k6 will return an ArrayBuffer object" "`none`: k6 will return null as the body. The whole body will be
  // ignored. This is the default when discardResponseBodies is set to true." (/javascript-api/k6-http/params/)
  it('returns the body as text, an ArrayBuffer or null by responseType and discardResponseBodies', async () => {
    const { vu, h } = setup({ options: { discardResponseBodies: true } });
    const none = await h.asyncRequest('GET', `${base}/bytes`);
    expect(none.body).toBeNull();
    expect(vu.sink.sum('data_received')).toBeGreaterThan(5);
    const bin = await h.asyncRequest('GET', `${base}/bytes`, null, { responseType: 'binary' });
    expect(bin.body).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(bin.body as ArrayBuffer)]).toEqual([0, 1, 2, 250, 255]);
    const text = await h.asyncRequest('GET', `${base}/ok`, null, { responseType: 'text' });
    expect(text.body).toBe('hello');
    await vu.close();
  });

  // "This does include all redirects so if for a request only 200 is the expected response and there is 301 redirect
  // before that, the redirect will be marked as failed" (/javascript-api/k6-http/set-response-callback/) "The number of
  // redirects to follow for this request." (/javascript-api/k6-http/params/)
  it('follows redirects, each hop with its own samples, and the response describes the last hop', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('GET', `${base}/redirect/3`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/ok`);
    expect(res.body).toBe('hello');
    expect(vu.sink.of('http_reqs').map((s) => [s.tags.status, s.tags.url])).toEqual([
      ['302', `${base}/redirect/3`],
      ['302', `${base}/redirect/2`],
      ['302', `${base}/redirect/1`],
      ['200', `${base}/ok`],
    ]);
    const strict = await h.asyncRequest('GET', `${base}/redirect/1`, null, { responseCallback: h.expectedStatuses(200) });
    expect(strict.status).toBe(200);
    expect(
      vu.sink
        .of('http_req_failed')
        .slice(-2)
        .map((s) => s.value),
    ).toEqual([1, 0]);
    const stopped = await h.asyncRequest('GET', `${base}/redirect/2`, null, { redirects: 0 });
    expect(stopped.status).toBe(302);
    expect(stopped.headers.Location).toBe('/redirect/1');
    const seeOther = await h.asyncRequest('POST', `${base}/see-other`, 'payload');
    expect((seeOther.json() as { method: string; body: string }).method).toBe('GET');
    expect((seeOther.json() as { method: string; body: string }).body).toBe('');
    await vu.close();
  });

  it('keeps the iteration while a request is in flight and rejects it when the iteration is interrupted', async () => {
    const { vu, h } = setup();
    const p = h.asyncRequest('GET', `${base}/slow`);
    expect(vu.pending()).toBe(1);
    setTimeout(() => vu.interrupt(), 50);
    await expect(p).rejects.toThrow(/interrupted/);
    await vu.settled();
    expect(vu.sink.of('http_reqs')).toHaveLength(0);
    await vu.close();
  });

  // "1020: An invalid URL was specified." (/javascript-api/error-codes/)
  it('answers an invalid URL with error_code 1020', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('GET', 'not a url');
    expect(res.status).toBe(0);
    expect(res.error_code).toBe(1020);
    await vu.close();
  });
});

describe('k6/http over TLS', () => {
  // "http_req_tls_handshaking: Time spent handshaking TLS session with remote host" (/using-k6/metrics/reference/)
  it('trusts the engine CA, measures the handshake and tags the TLS version', async () => {
    const { vu, h } = setup({ tls: { ca: material.ca, insecure: false } });
    const res = await h.asyncRequest('GET', `${tlsBase}/ok`);
    expect(res.status).toBe(200);
    expect(res.timings.tls_handshaking).toBeGreaterThan(0);
    expect(res.timings.connecting).toBeGreaterThan(0);
    expect(res.tls_version).toBe('tls1.3');
    expect(vu.sink.of('http_reqs')[0]?.tags.tls_version).toBe('tls1.3');
    await vu.close();
  });

  // "1310: Unknown authority - the certificate issuer is unknown." (/javascript-api/error-codes/)
  it('fails with 1310 when the CA is not trusted, and passes with insecureSkipTLSVerify', async () => {
    const { vu, h } = setup();
    const res = await h.asyncRequest('GET', `${tlsBase}/ok`);
    expect(res.status).toBe(0);
    expect(res.error_code).toBe(1310);
    expect(res.error).toMatch(/unknown authority/);
    await vu.close();
    const insecure = setup({ options: { insecureSkipTLSVerify: true } });
    expect((await insecure.h.asyncRequest('GET', `${tlsBase}/ok`)).status).toBe(200);
    await insecure.vu.close();
  });
});

describe('k6/http over HTTP/2', () => {
  // /using-k6/protocols/http-2/: "k6 uses HTTP/2 by default when the server supports it"; its example checks
  // `r.proto === 'HTTP/2.0'`. One connection per VU and host, the requests multiplexed on it.
  it('negotiates h2, runs concurrent requests on one connection, and a stream that times out leaves the others', async () => {
    let sessions = 0;
    const h2 = http2.createSecureServer({ key: material.key, cert: material.cert }, (req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000).unref();
      res.writeHead(201, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
      res.end('made');
    });
    h2.on('session', () => sessions++);
    h2.listen(0, '127.0.0.1');
    await once(h2, 'listening');
    const url = `https://localhost:${(h2.address() as AddressInfo).port}`;
    const { vu, h } = setup({ tls: { ca: material.ca, insecure: false } });
    try {
      const slow = h.asyncRequest('GET', `${url}/slow`, null, { timeout: '300ms' });
      const all = await Promise.all(Array.from({ length: 8 }, (_, i) => h.asyncRequest('POST', `${url}/made?i=${i}`, 'x')));
      for (const r of all) {
        expect(r.status).toBe(201);
        expect(r.proto).toBe('HTTP/2.0');
        // h2 has no reason phrase: the status's text, as Go gives it.
        expect(r.status_text).toBe('201 Created');
        expect(r.cookies.a?.[0]?.value).toBe('1');
      }
      const late = await slow;
      expect(late.error_code).toBe(1050);
      expect((await h.asyncRequest('GET', `${url}/after`)).proto).toBe('HTTP/2.0');
      expect(sessions).toBe(1);
      const tags = vu.sink.of('http_reqs').map((s) => s.tags.proto);
      expect(new Set(tags)).toEqual(new Set(['HTTP/2.0']));
      // duration = sending + waiting + receiving, as over HTTP/1.1.
      const t = all[0]?.timings;
      expect(t?.duration).toBeCloseTo((t?.sending ?? 0) + (t?.waiting ?? 0) + (t?.receiving ?? 0), 6);
    } finally {
      await vu.close();
      await new Promise((r) => h2.close(r));
    }
  });

  it('stays on HTTP/1.1 with a TLS server that offers no h2', async () => {
    const { vu, h } = setup({ tls: { ca: material.ca, insecure: false } });
    const res = await h.asyncRequest('GET', `${tlsBase}/ok`);
    expect(res.proto).toBe('HTTP/1.1');
    expect(vu.sink.of('http_reqs')[0]?.tags.proto).toBe('HTTP/1.1');
    await vu.close();
  });
});

describe('k6/http classic calls', () => {
  // k6 docs, /javascript-api/k6-http/get/: "Make a GET request." … Returns "Response: HTTP Response object."; the
  // built-in engine returns its promise, which the script's rewrite (src/engine/blocking.ts) awaits.
  it('give the Response of each method through the promise the rewrite awaits', async () => {
    const { h, vu } = setup();
    const call = (name: string, ...a: unknown[]) => (h[name] as (...x: unknown[]) => Promise<HttpResponse>)(...a);
    expect((await call('get', `${base}/echo`)).json('method')).toBe('GET');
    expect((await call('head', `${base}/ok`)).status).toBe(200);
    expect((await call('post', `${base}/echo`, 'p')).json('body')).toBe('p');
    expect((await call('put', `${base}/echo`, 'u')).json('method')).toBe('PUT');
    expect((await call('patch', `${base}/echo`, 'x')).json('method')).toBe('PATCH');
    expect((await call('del', `${base}/echo`)).json('method')).toBe('DELETE');
    expect((await call('options', `${base}/echo`)).json('method')).toBe('OPTIONS');
    expect((await call('request', 'POST', `${base}/echo`, 'r', { headers: { 'X-A': 'b' } })).json('headers.x-a')).toBe('b');
    await vu.close();
  });

  // k6 docs, /javascript-api/k6-http/batch/: "Batch multiple HTTP requests together to issue them in parallel over
  // multiple TCP connections." … "The returned object is an array of responses, or an object with the same keys".
  it("batch answers an array in the requests' order and an object by its keys, in every request form", async () => {
    const { h, vu } = setup();
    const batch = h.batch as (r: unknown) => Promise<HttpResponse[] | Record<string, HttpResponse>>;
    const list = (await batch([`${base}/echo?n=0`, ['POST', `${base}/echo?n=1`, 'b'], { method: 'PUT', url: `${base}/echo?n=2` }])) as HttpResponse[];
    expect(list.map((r) => [r.json('method'), r.json('url')])).toEqual([
      ['GET', '/echo?n=0'],
      ['POST', '/echo?n=1'],
      ['PUT', '/echo?n=2'],
    ]);
    const keyed = (await batch({ a: `${base}/status/201`, b: ['GET', `${base}/status/404`] })) as Record<string, HttpResponse>;
    expect([keyed.a?.status, keyed.b?.status]).toEqual([201, 404]);
    expect(await batch([])).toEqual([]);
    await vu.close();
  });

  // /using-k6/k6-options/reference/#batch-per-host: "The maximum number of simultaneous/parallel connections for the
  // same hostname that an http.batch() call in a VU can make."
  it('batch keeps to batchPerHost connections to one host at a time', async () => {
    const { h, vu } = setup({ options: { batchPerHost: 2 } });
    const before = sockets.size;
    const list = (await (h.batch as (r: unknown) => Promise<HttpResponse[]>)(Array.from({ length: 6 }, (_, i) => `${base}/echo?i=${i}`))) as HttpResponse[];
    expect(list.every((r) => r.status === 200)).toBe(true);
    expect(sockets.size - before).toBeLessThanOrEqual(2);
    await vu.close();
  });
});

describe('k6/http cookies', () => {
  type Jar = {
    set(url: string, name: string, value: string, o?: Record<string, unknown>): void;
    cookiesForURL(url: string): Record<string, string[]>;
    clear(url: string): void;
    delete(url: string, name: string): void;
  };
  const sentCookie = (r: HttpResponse) => r.json('headers.cookie') as string | undefined;

  // /using-k6/cookies/: "For most purposes, k6 transparently manages the reception, storage, and transmission of
  // cookies as described."
  it('stores what a response sets in the VU jar and sends it with the next request to that host', async () => {
    const { h, vu } = setup();
    await h.asyncRequest('GET', `${base}/echo`);
    expect(sentCookie(await h.asyncRequest('GET', `${base}/echo`))).toBe('a=1; b=2');
    expect((h.cookieJar as () => Jar)().cookiesForURL(`${base}/`)).toEqual({ a: ['1'], b: ['2'] });
    await vu.close();
  });

  // /using-k6/cookies/: a cookie in the `cookies` parameter "applies only to the cookie for the request in question. It
  // isn't sent for any subsequent requests"; `replace: true` overrides the jar's cookie of that name.
  it('sends params.cookies with that request only, and replaces a jar cookie of the same name when asked', async () => {
    const { h, vu } = setup();
    expect(sentCookie(await h.asyncRequest('GET', `${base}/ok`, null, { cookies: { once: 'x' } }))).toBeUndefined();
    const echo = await h.asyncRequest('GET', `${base}/echo`, null, { cookies: { once: 'x' } });
    expect(sentCookie(echo)).toBe('once=x');
    expect(sentCookie(await h.asyncRequest('GET', `${base}/echo`, null, { cookies: { a: { value: 'mine', replace: true } } }))).toBe('b=2; a=mine');
    expect((h.cookieJar as () => Jar)().cookiesForURL(`${base}/`).once).toBeUndefined();
    await vu.close();
  });

  // /javascript-api/k6-http/cookiejar/: set, cookiesForURL, delete and clear.
  it('lets a script set, read, delete and clear the cookies of a jar', async () => {
    const { h, vu } = setup();
    const jar = (h.cookieJar as () => Jar)();
    jar.set(`${base}/`, 'k', 'v', { path: '/' });
    jar.set(`${base}/`, 'gone', 'soon');
    expect(sentCookie(await h.asyncRequest('GET', `${base}/echo`))).toBe('k=v; gone=soon');
    jar.delete(`${base}/`, 'gone');
    expect(jar.cookiesForURL(`${base}/`)).toEqual({ a: ['1'], b: ['2'], k: ['v'] });
    jar.clear(`${base}/`);
    expect(jar.cookiesForURL(`${base}/`)).toEqual({});
    await vu.close();
  });

  // /javascript-api/k6-http/cookiejar/: "create your own cookie jar and select it as the active jar (instead of the
  // default one created by k6) for one or more requests."
  it("uses a jar of the script's own for the requests that name it in params.jar", async () => {
    const { h, vu } = setup();
    const own = new (h.CookieJar as new () => Jar)();
    await h.asyncRequest('GET', `${base}/echo`, null, { jar: own });
    expect(own.cookiesForURL(`${base}/`)).toEqual({ a: ['1'], b: ['2'] });
    expect((h.cookieJar as () => Jar)().cookiesForURL(`${base}/`)).toEqual({});
    await vu.close();
  });

  // /using-k6/k6-options/reference/#no-cookies-reset: "This disables the default behavior of resetting the cookie jar
  // after each VU iteration."
  it('empties the VU jar when a new iteration begins, unless noCookiesReset', async () => {
    for (const [options, left] of [
      [{}, {}],
      [{ noCookiesReset: true }, { a: ['1'], b: ['2'] }],
    ] as const) {
      const { h, vu } = setup({ options });
      await h.asyncRequest('GET', `${base}/echo`);
      vu.exec.vuIterationInInstance++;
      expect((h.cookieJar as () => Jar)().cookiesForURL(`${base}/`)).toEqual(left);
      await vu.close();
    }
  });
});

describe('k6/http res.html()', () => {
  // /javascript-api/k6-http/response/response-html/: "Parses response as HTML and populates a Selection object."
  it('parses the body as HTML with k6/html, once the script loaded it', async () => {
    const { parseHTML } = await import('../html/html.js');
    useHtmlParser(parseHTML);
    const { h, vu } = setup();
    const res = await h.asyncRequest('GET', `${base}/page`);
    expect((res.html() as { find(s: string): { text(): string } }).find('title').text()).toBe('k6 page');
    expect((res.html('a') as { attr(n: string): string }).attr('href')).toBe('/next');
    await vu.close();
  });
});
