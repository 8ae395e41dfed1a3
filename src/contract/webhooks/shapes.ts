import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { Alert } from '../alerts/shapes.js';
import { IsoDateTime } from '../common.js';

/** Webhook event types. */
export const WebhookEventType = z.enum(['alerts.triggered', 'alerts.resolved']);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** POST /v1/webhook-endpoints body; requiring all three and an http(s) URL is the reference's choice. */
export const WebhookEndpointCreateRequest = z.object({
  name: z.string(),
  url: z.url({ protocol: /^https?$/ }),
  event_types: z.array(WebhookEventType),
});
export type WebhookEndpointCreateRequest = z.infer<typeof WebhookEndpointCreateRequest>;

/**
 * Webhook endpoint create response. Only `signing_secret` (returned once) is documented;
 * `id`, `name`, `url`, `event_types` and `created_at` are the reference target's choice.
 */
export const WebhookEndpointCreateResponse = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  event_types: z.array(WebhookEventType),
  signing_secret: z.string(),
  created_at: IsoDateTime,
});
export type WebhookEndpointCreateResponse = z.infer<typeof WebhookEndpointCreateResponse>;

/** The alerts.triggered delivery body. */
export const AlertTriggeredPayload = z.object({
  event_type: z.literal('alerts.triggered'),
  alert: Alert,
});
export type AlertTriggeredPayload = z.infer<typeof AlertTriggeredPayload>;

/** Reference choice: the alerts.resolved body is not shown; it mirrors triggered and adds `resolved_at`. */
export const AlertResolvedPayload = z.object({
  event_type: z.literal('alerts.resolved'),
  alert: Alert.extend({ resolved_at: IsoDateTime }),
});
export type AlertResolvedPayload = z.infer<typeof AlertResolvedPayload>;

/** Any webhook delivery body, discriminated by `event_type`. */
export const WebhookPayload = z.discriminatedUnion('event_type', [AlertTriggeredPayload, AlertResolvedPayload]);
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** The documented webhook path; list, update, delete and rotate paths are not shown. */
export const WebhooksPaths = {
  endpoints: '/v1/webhook-endpoints',
} as const;

/** Delivery signature headers (Standard Webhooks). Reference choice: the document does not show the scheme. */
export const WebhookSignatureHeaders = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Prefix of a signing secret (Standard Webhooks): `whsec_<base64 key>`. */
export const SIGNING_SECRET_PREFIX = 'whsec_' as const;

/** Default tolerance between a delivery's timestamp and the receiver's clock, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function secretKey(secret: string): Buffer {
  const raw = secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret;
  return Buffer.from(raw, 'base64');
}

function hmacBase64(secret: string, id: string, timestampSeconds: number, body: string | Uint8Array): string {
  return createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
}

/**
 * A new signing secret, `whsec_` plus 32 random bytes in base64.
 *
 * @example
 * const secret = createSigningSecret(); // 'whsec_3q2+7w...'
 */
export function createSigningSecret(bytes = 32): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(bytes).toString('base64')}`;
}

/**
 * The `webhook-signature` value of a delivery: `v1,<base64 HMAC-SHA256 of "${id}.${timestamp}.${body}">`.
 *
 * @example
 * const sig = signDelivery('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1700000000, '{"event_type":"alerts.triggered"}');
 * // 'v1,...'
 */
export function signDelivery(secret: string, id: string, timestampSeconds: number, body: string | Uint8Array): string {
  return `v1,${hmacBase64(secret, id, timestampSeconds, body)}`;
}

/**
 * The three signature headers of a delivery, for the sender.
 *
 * @example
 * const headers = deliveryHeaders(secret, 'msg_1', Math.floor(Date.now() / 1000), body);
 */
export function deliveryHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): Record<(typeof WebhookSignatureHeaders)[keyof typeof WebhookSignatureHeaders], string> {
  return {
    [WebhookSignatureHeaders.id]: id,
    [WebhookSignatureHeaders.timestamp]: String(timestampSeconds),
    [WebhookSignatureHeaders.signature]: signDelivery(secret, id, timestampSeconds, body),
  };
}

/** Delivery headers as a receiver sees them (node's IncomingHttpHeaders fits). */
export type DeliveryHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The outcome of verifying a delivery. */
export type VerifyResult = { ok: true } | { ok: false; reason: string };

function header(headers: DeliveryHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(' ');
  }
  return undefined;
}

/**
 * Verifies a delivery: headers present, timestamp within tolerance of `nowSeconds`, and one `v1` entry
 * of the space-separated signature list matching (constant-time comparison).
 *
 * @example
 * const r = verifyDelivery(secret, req.headers, rawBody, Math.floor(Date.now() / 1000));
 * if (!r.ok) reply.code(400).send(r.reason);
 */
export function verifyDelivery(
  secret: string,
  headers: DeliveryHeaders,
  body: string | Uint8Array,
  nowSeconds: number,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): VerifyResult {
  const id = header(headers, WebhookSignatureHeaders.id);
  const timestamp = header(headers, WebhookSignatureHeaders.timestamp);
  const signature = header(headers, WebhookSignatureHeaders.signature);
  if (!id) return { ok: false, reason: `missing ${WebhookSignatureHeaders.id} header` };
  if (!timestamp) return { ok: false, reason: `missing ${WebhookSignatureHeaders.timestamp} header` };
  if (!signature) return { ok: false, reason: `missing ${WebhookSignatureHeaders.signature} header` };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: `invalid ${WebhookSignatureHeaders.timestamp} header` };
  const ts = Number(timestamp);
  if (nowSeconds - ts > toleranceSeconds) return { ok: false, reason: 'timestamp too old' };
  if (ts - nowSeconds > toleranceSeconds) return { ok: false, reason: 'timestamp too new' };
  const expected = Buffer.from(hmacBase64(secret, id, ts, body));
  for (const entry of signature.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no matching signature' };
}
