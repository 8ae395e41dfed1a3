import { afterEach, describe, expect, it } from 'vitest';
import { createSigningSecret, deliveryHeaders, SIGNATURE_TOLERANCE_SECONDS } from '../contract/webhooks/shapes.js';
import { request } from './exchange.js';
import { ReplayGuard, verifyAnyScheme, WebhookReceiver } from './webhook-receiver.js';

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const now = 1_800_000_000;
const body = JSON.stringify({ event_type: 'alerts.triggered', alert: { id: 'ar_1' } });

describe('WebhookReceiver', () => {
  it('records a POST with its raw body and answers what the responder says', async () => {
    const rx = await WebhookReceiver.start((_d, n) => (n === 0 ? 500 : 204));
    receivers.push(rx);
    const first = await request({ method: 'POST', url: rx.url, headers: { 'content-type': 'application/json' }, body });
    const second = await request({ method: 'POST', url: rx.url, body });
    expect([first.status, second.status]).toEqual([500, 204]);
    const d = await rx.waitFor((x) => x.answered === 204, 'the second');
    expect(d.text).toBe(body);
    expect(d.json).toEqual(JSON.parse(body));
  });

  it('rejects a wait that sees no matching delivery in time', async () => {
    const rx = await WebhookReceiver.start();
    receivers.push(rx);
    await expect(rx.waitFor(() => true, 'anything', 30)).rejects.toThrow(/no delivery of anything within 30 ms/);
  });
});

describe('verifyAnyScheme', () => {
  it('verifies Standard Webhooks signatures and names the scheme', () => {
    const secret = createSigningSecret();
    const headers = deliveryHeaders(secret, 'msg_1', now, body);
    expect(verifyAnyScheme(secret, { headers, body: Buffer.from(body) }, now)).toEqual({ ok: true, scheme: 'standard-webhooks' });
  });

  it('fails for another secret and for a tampered body', () => {
    const secret = createSigningSecret();
    const headers = deliveryHeaders(secret, 'msg_1', now, body);
    expect(verifyAnyScheme(createSigningSecret(), { headers, body: Buffer.from(body) }, now).ok).toBe(false);
    expect(verifyAnyScheme(secret, { headers, body: Buffer.from(body.replace('ar_1', 'ar_2')) }, now).ok).toBe(false);
  });
});

describe('ReplayGuard', () => {
  it('accepts a delivery once and refuses the same webhook-id again', () => {
    const secret = createSigningSecret();
    const d = { headers: deliveryHeaders(secret, 'msg_1', now, body), body: Buffer.from(body) };
    const guard = new ReplayGuard();
    expect(guard.accept(secret, d, now)).toEqual({ ok: true });
    expect(guard.accept(secret, d, now).ok).toBe(false);
  });

  it('refuses a delivery replayed after the tolerance even to a fresh receiver', () => {
    const secret = createSigningSecret();
    const d = { headers: deliveryHeaders(secret, 'msg_1', now, body), body: Buffer.from(body) };
    expect(new ReplayGuard().accept(secret, d, now + SIGNATURE_TOLERANCE_SECONDS + 1)).toEqual({ ok: false, reason: 'timestamp too old' });
  });
});
