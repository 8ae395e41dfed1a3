import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSigningSecret, verifyDelivery, WebhookSignatureHeaders } from '../../contract/webhooks/shapes.js';
import { AdjustableClock } from '../clock.js';
import { SeededRandom } from '../ids.js';
import { Deliverer } from './delivery.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A receiver that answers the given statuses in turn (200 once they run out). */
async function receiver(statuses: number[]): Promise<{ url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
};

describe('Deliverer', () => {
  it('signs a delivery so it verifies with the endpoint secret and the clock of the target', async () => {
    const clock = new AdjustableClock();
    clock.advance(3_600_000);
    const secret = createSigningSecret();
    const r = await receiver([]);
    const d = new Deliverer(clock, new SeededRandom(1), [10]);
    await d.send({ endpointId: 'we_1', accountId: 'A', url: r.url, secret: () => secret }, '{"event_type":"alerts.triggered"}');
    expect(r.got).toHaveLength(1);
    const got = r.got[0]!;
    expect(verifyDelivery(secret, got.headers, got.body, Math.floor(clock.now() / 1000))).toEqual({ ok: true });
    expect(got.headers['content-type']).toBe('application/json');
    d.close();
  });

  it('retries a failed attempt with the same webhook-id after a backoff', async () => {
    const r = await receiver([500, 503]);
    const d = new Deliverer(new AdjustableClock(), new SeededRandom(1), [10, 20, 40]);
    await d.send({ endpointId: 'we_1', accountId: 'A', url: r.url, secret: () => createSigningSecret() }, '{}');
    // The receiver sees a request before the deliverer records its answer: wait for the record, not the request.
    await until(() => d.attempts('A').length >= 3);
    expect(r.got).toHaveLength(3);
    expect(new Set(r.got.map((g) => g.headers[WebhookSignatureHeaders.id])).size).toBe(1);
    expect(d.attempts('A').map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    d.close();
  });

  it('gives up after the last retry and sends nothing once closed', async () => {
    const r = await receiver([500, 500, 500, 500]);
    const d = new Deliverer(new AdjustableClock(), new SeededRandom(1), [10]);
    await d.send({ endpointId: 'we_1', accountId: 'A', url: r.url, secret: () => createSigningSecret() }, '{}');
    await until(() => r.got.length >= 2);
    await new Promise((res) => setTimeout(res, 50));
    expect(r.got).toHaveLength(2);
    const closed = new Deliverer(new AdjustableClock(), new SeededRandom(1), [10_000]);
    await closed.send({ endpointId: 'we_1', accountId: 'B', url: r.url, secret: () => createSigningSecret() }, '{}');
    closed.close();
    expect(r.got).toHaveLength(3);
    d.close();
  });

  it('records a network failure as an attempt without a status', async () => {
    const d = new Deliverer(new AdjustableClock(), new SeededRandom(1), []);
    await d.send({ endpointId: 'we_1', accountId: 'A', url: 'http://127.0.0.1:1/hook', secret: () => createSigningSecret() }, '{}');
    expect(d.attempts('A')[0]?.status).toBeNull();
  });
});
