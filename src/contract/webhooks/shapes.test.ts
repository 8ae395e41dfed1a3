import { describe, expect, it } from 'vitest';
import { createSigningSecret, deliveryHeaders, signDelivery, verifyDelivery, WebhookSignatureHeaders } from './shapes.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const now = 1_700_000_000;
const body = JSON.stringify({ event_type: 'alerts.triggered', alert: { id: 'ar_1', name: 'errors' } });

describe('signed webhook deliveries (Standard Webhooks)', () => {
  it('a valid signature verifies', () => {
    const headers = deliveryHeaders(secret, id, now, body);
    expect(headers[WebhookSignatureHeaders.signature]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyDelivery(secret, headers, body, now)).toEqual({ ok: true });
  });

  it('a valid signature verifies with header names in another case and a body as bytes', () => {
    const headers = {
      'Webhook-Id': id,
      'Webhook-Timestamp': String(now),
      'Webhook-Signature': signDelivery(secret, id, now, body),
    };
    expect(verifyDelivery(secret, headers, Buffer.from(body), now + 10)).toEqual({ ok: true });
  });

  it('a tampered body fails', () => {
    const headers = deliveryHeaders(secret, id, now, body);
    const result = verifyDelivery(secret, headers, body.replace('errors', 'errorz'), now);
    expect(result.ok).toBe(false);
  });

  it('a wrong secret fails', () => {
    const headers = deliveryHeaders(secret, id, now, body);
    expect(verifyDelivery(createSigningSecret(), headers, body, now).ok).toBe(false);
  });

  it('a stale timestamp fails (replay)', () => {
    const headers = deliveryHeaders(secret, id, now, body);
    const result = verifyDelivery(secret, headers, body, now + 301);
    expect(result).toEqual({ ok: false, reason: 'timestamp too old' });
  });

  it('a timestamp too far in the future fails', () => {
    const headers = deliveryHeaders(secret, id, now + 301, body);
    expect(verifyDelivery(secret, headers, body, now).ok).toBe(false);
  });

  it('a signature list with several entries verifies when one matches', () => {
    const good = signDelivery(secret, id, now, body);
    const other = signDelivery(createSigningSecret(), id, now, body);
    const headers = {
      [WebhookSignatureHeaders.id]: id,
      [WebhookSignatureHeaders.timestamp]: String(now),
      [WebhookSignatureHeaders.signature]: `${other} v2,abc ${good}`,
    };
    expect(verifyDelivery(secret, headers, body, now)).toEqual({ ok: true });
  });

  it('a delivery missing a signature header fails with a reason', () => {
    const result = verifyDelivery(secret, { [WebhookSignatureHeaders.id]: id }, body, now);
    expect(result.ok).toBe(false);
  });
});
