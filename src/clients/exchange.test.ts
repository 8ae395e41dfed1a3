import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundTo, type Exchange, logUnanswered, request, TargetUnreachable } from './exchange.js';

describe('a request that gets no answer', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    // /silent reads the request and never answers; /hang-up drops the connection; /ok answers; /slow answers after 150 ms.
    server = http.createServer((req, res) => {
      if (req.url === '/hang-up') req.socket.destroy();
      else if (req.url === '/ok') res.end('{"ok":true}');
      else if (req.url === '/slow') setTimeout(() => res.end('{"slow":true}'), 150);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
  });

  it('rejects with the request it sent, marked unanswered with why, when the wait runs out', async () => {
    const e = await request({ method: 'POST', url: `${base}/silent`, headers: { 'X-API-KEY': 'k' }, body: { a: 1 }, timeoutMs: 200 }).catch((x) => x);
    expect(e).toBeInstanceOf(TargetUnreachable);
    expect(e.message).toBe(`POST ${base}/silent: no answer within 200 ms`);
    expect(e.exchange).toMatchObject({ method: 'POST', url: `${base}/silent`, requestBody: '{"a":1}', status: 0, unanswered: 'no answer within 200 ms' });
    expect(e.exchange.requestHeaders['X-API-KEY']).toBe('k');
  });

  it('rejects the same way when the connection is dropped before an answer', async () => {
    const e = await request({ method: 'GET', url: `${base}/hang-up` }).catch((x) => x);
    expect(e).toBeInstanceOf(TargetUnreachable);
    expect(e.exchange).toMatchObject({ method: 'GET', status: 0, unanswered: 'socket hang up' });
  });

  it("goes into a client's wire log through logUnanswered, concealed as the client conceals, and the error goes on", async () => {
    const log: Exchange[] = [];
    const conceal = (ex: Exchange): Exchange => ({ ...ex, requestHeaders: { ...ex.requestHeaders, 'X-API-KEY': '[redacted]' } });
    const e = await request({ method: 'GET', url: `${base}/hang-up`, headers: { 'X-API-KEY': 'k' } })
      .catch(logUnanswered(log, conceal))
      .catch((x) => x);
    expect(e).toBeInstanceOf(TargetUnreachable);
    expect(log.map((ex) => [ex.url, ex.requestHeaders['X-API-KEY'], ex.unanswered])).toEqual([[`${base}/hang-up`, '[redacted]', 'socket hang up']]);
  });

  it('leaves the wire log alone for an answered request and for errors that are not a missing answer', async () => {
    const log: Exchange[] = [];
    const res = await request({ method: 'GET', url: `${base}/ok` }).catch(logUnanswered(log));
    expect(res.status).toBe(200);
    expect(res.exchange.unanswered).toBeUndefined();
    await expect(Promise.reject(new Error('other')).catch(logUnanswered(log))).rejects.toThrow('other');
    expect(log).toEqual([]);
  });

  it("is stopped when the case's signal aborts, with the case's timeout as the reason, and none is sent after", async () => {
    const timeout = new AbortController();
    const log: Exchange[] = [];
    const sent = boundTo(timeout.signal, () => request({ method: 'GET', url: `${base}/silent` }).catch(logUnanswered(log)));
    const stopped = expect(sent).rejects.toThrow(`GET ${base}/silent: no answer before the case's 30000 ms ran out (waits.case_ms)`);
    // vitest aborts a case's signal with its timeout error.
    setTimeout(() => timeout.abort(new Error('Test timed out in 30000ms.\nIf this is a long-running test, …')), 50);
    await stopped;
    await expect(boundTo(timeout.signal, () => request({ method: 'GET', url: `${base}/ok` }).catch(logUnanswered(log)))).rejects.toThrow(
      "not sent: the case's 30000 ms ran out (waits.case_ms)",
    );
    expect(log.map((ex) => ex.unanswered)).toEqual([
      "no answer before the case's 30000 ms ran out (waits.case_ms)",
      "not sent: the case's 30000 ms ran out (waits.case_ms)",
    ]);
  });

  it('stops a dozen requests in flight on one signal, every one logged, with no listener warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const timeout = new AbortController();
    const log: Exchange[] = [];
    const burst = boundTo(timeout.signal, () =>
      Promise.allSettled(Array.from({ length: 12 }, () => request({ method: 'POST', url: `${base}/silent`, body: {} }).catch(logUnanswered(log)))),
    );
    setTimeout(() => timeout.abort(new Error('Test timed out in 30000ms.')), 50);
    const settled = await burst;
    await new Promise((done) => setImmediate(done));
    process.off('warning', onWarning);
    expect(settled.map((r) => r.status)).toEqual(Array(12).fill('rejected'));
    expect(log.map((ex) => ex.unanswered)).toEqual(Array(12).fill("no answer before the case's 30000 ms ran out (waits.case_ms)"));
    expect(warnings).toEqual([]);
  });

  it("ends only once the requests a body stopped waiting for have ended and been logged, so the case's wire log has them all", async () => {
    const log: Exchange[] = [];
    // As a client sends: the exchange is logged once the request settles, answered or not.
    const send = (path: string) =>
      request({ method: 'POST', url: `${base}${path}`, body: {} })
        .catch(logUnanswered(log))
        .then((res) => log.push(res.exchange));
    // Promise.all rejects as soon as the dropped connection fails, with the slow answer still on its way.
    const ended = await boundTo(new AbortController().signal, () => Promise.all([send('/slow'), send('/hang-up')])).catch((e: Error) => e);
    expect(ended).toBeInstanceOf(TargetUnreachable);
    expect(log.map((ex) => `${ex.url.slice(base.length)} ${ex.status}`).sort()).toEqual(['/hang-up 0', '/slow 200']);
  });

  it('is not stopped by a signal that never aborts: the answer comes as usual', async () => {
    const res = await boundTo(new AbortController().signal, () => request({ method: 'GET', url: `${base}/ok` }));
    expect([res.status, res.text]).toEqual([200, '{"ok":true}']);
  });
});

describe('a request on a keep-alive connection the target closed while it was idle', () => {
  it('goes again on a new connection, once, and gets its answer', async () => {
    // Each connection answers its first request and drops at its second, as a target that closed it between the two.
    const served = new WeakMap<object, number>();
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n > 1) req.socket.destroy();
      else res.end('{"ok":true}');
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect((await request({ method: 'POST', url, body: {} })).status).toBe(200);
      const again = await request({ method: 'POST', url, body: {} });
      expect(again.status).toBe(200);
      expect(requests).toBe(3);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
