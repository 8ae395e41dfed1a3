import { createHmac } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNING_SECRET_PREFIX, type VerifyResult, verifyDelivery, WebhookSignatureHeaders } from '../contract/webhooks/shapes.js';

/** One POST the receiver got, with its raw body (signatures cover bytes, not parsed JSON). */
export interface ReceivedDelivery {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: unknown;
  /** performance.now() when the body was complete. */
  readonly receivedAt: number;
  /** The status the receiver answered. */
  readonly answered: number;
}

/** Decides the status to answer for the n-th delivery (0-based); 200 by default. */
export type Responder = (d: Omit<ReceivedDelivery, 'answered'>, n: number) => number;

/**
 * A webhook receiver the suite runs itself: a node:http server on 127.0.0.1, port 0. Waiting is
 * always bounded: `waitFor` rejects after its timeout rather than sleeping blindly.
 *
 * @example
 * const rx = await WebhookReceiver.start();
 * // ... register rx.url, make an alert fire ...
 * const d = await rx.waitFor((d) => eventType(d) === 'alerts.triggered', 'alerts.triggered');
 * await rx.close();
 */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  readonly #events = new EventEmitter();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(respond: Responder = () => 200, path = '/hooks/dialtone'): Promise<WebhookReceiver> {
    const server = http.createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const rx = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, text, json, receivedAt: performance.now() };
        const answered = respond(seen, rx.deliveries.length);
        rx.deliveries.push({ ...seen, answered });
        res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'try again');
        rx.#events.emit('delivery');
      });
    });
    return rx;
  }

  /** Resolves with the first delivery (already received or still to come) that matches; rejects after `timeoutMs`. */
  waitFor(match: (d: ReceivedDelivery) => boolean, what: string, timeoutMs = 10_000): Promise<ReceivedDelivery> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const d = this.deliveries.find(match);
        if (!d) return;
        cleanup();
        resolve(d);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`no delivery of ${what} within ${timeoutMs} ms (got ${this.deliveries.length}: ${this.deliveries.map(eventType).join(', ') || 'none'})`),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#events.off('delivery', look);
      };
      this.#events.on('delivery', look);
      look();
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}

/** The event type a delivery body names (`event_type`), or undefined. */
export function eventType(d: Pick<ReceivedDelivery, 'json'>): string | undefined {
  const j = d.json as { event_type?: unknown } | undefined;
  return typeof j?.event_type === 'string' ? j.event_type : undefined;
}

/** Signature schemes the suite recognises; the document does not show which one the platform uses. */
export type SignatureScheme = 'standard-webhooks' | 'hmac-sha256-body';

function keyBytes(secret: string): Buffer[] {
  const raw = secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret;
  return [Buffer.from(raw, 'base64'), Buffer.from(secret, 'utf8')];
}

/** A plain HMAC-SHA256 of the raw body (hex or base64, optionally `sha256=`) in any header whose name holds "signature". */
function verifyBodyHmac(secret: string, d: Pick<ReceivedDelivery, 'headers' | 'body'>): boolean {
  const candidates = Object.entries(d.headers)
    .filter(([k]) => k.toLowerCase().includes('signature'))
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v ?? '']))
    .map((v) => v.replace(/^sha256=/, ''));
  for (const key of keyBytes(secret)) {
    const mac = createHmac('sha256', key).update(d.body);
    const digest = mac.digest();
    if (candidates.some((c) => c === digest.toString('hex') || c === digest.toString('base64'))) return true;
  }
  return false;
}

/**
 * Verifies a delivery against the endpoint's secret under each scheme the suite knows, Standard
 * Webhooks first. `nowSeconds` is the verifier's clock (the target's, when it can be read).
 */
export function verifyAnyScheme(
  secret: string,
  d: Pick<ReceivedDelivery, 'headers' | 'body'>,
  nowSeconds: number,
): { ok: true; scheme: SignatureScheme } | { ok: false; reason: string } {
  const standard = verifyDelivery(secret, d.headers, d.body, nowSeconds);
  if (standard.ok) return { ok: true, scheme: 'standard-webhooks' };
  if (verifyBodyHmac(secret, d)) return { ok: true, scheme: 'hmac-sha256-body' };
  return { ok: false, reason: `standard-webhooks: ${standard.reason}; hmac-sha256-body: no matching signature header` };
}

/**
 * A receiver's replay guard on top of Standard Webhooks verification: a delivery whose webhook-id
 * was already accepted is refused, as is one whose timestamp is outside the tolerance.
 */
export class ReplayGuard {
  readonly #seen = new Set<string>();
  accept(secret: string, d: Pick<ReceivedDelivery, 'headers' | 'body'>, nowSeconds: number): VerifyResult {
    const result = verifyDelivery(secret, d.headers, d.body, nowSeconds);
    if (!result.ok) return result;
    const id = String(d.headers[WebhookSignatureHeaders.id]);
    if (this.#seen.has(id)) return { ok: false, reason: `webhook-id ${id} already delivered (replay)` };
    this.#seen.add(id);
    return result;
  }
}
