import http from 'node:http';
import https from 'node:https';
import { deliveryHeaders } from '../../contract/webhooks/shapes.js';
import type { Clock } from '../clock.js';
import type { SeededRandom } from '../ids.js';

/** Waits before each retry after a failed attempt: exponential backoff from 0.5 s, five retries, six attempts in all. */
export const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000] as const;
/** An attempt that has not answered within this long counts as failed. */
export const ATTEMPT_TIMEOUT_MS = 5_000;
/** The User-Agent of deliveries. */
export const DELIVERY_USER_AGENT = 'dialtone-reference-webhooks/1';

/** One attempt of one delivery, for the control surface. */
export interface DeliveryAttempt {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly attempt: number;
  readonly at: string;
  readonly status: number | null;
  readonly error?: string;
}

/** Where a delivery goes and how it is signed; `secret` is read at each attempt, so a rotation applies to retries. */
export interface DeliveryTarget {
  readonly endpointId: string;
  readonly accountId: string;
  readonly url: string;
  secret(): string;
}

/**
 * Sends signed webhook deliveries (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature)
 * and retries failed ones with backoff. Every timer and request is cancelled by `close()`.
 */
export class Deliverer {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #requests = new Set<http.ClientRequest>();
  readonly #attempts: (DeliveryAttempt & { accountId: string })[] = [];
  #closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly rng: SeededRandom,
    private readonly delays: readonly number[] = RETRY_DELAYS_MS,
    private readonly timeoutMs = ATTEMPT_TIMEOUT_MS,
  ) {}

  /** Sends a body to one endpoint; resolves once the first attempt has ended (retries go on in the background). */
  send(target: DeliveryTarget, body: string): Promise<void> {
    const deliveryId = `msg_${this.rng.hex(24)}`;
    return this.#attempt(target, deliveryId, body, 0);
  }

  async #attempt(target: DeliveryTarget, deliveryId: string, body: string, n: number): Promise<void> {
    if (this.#closed) return;
    const seconds = Math.floor(this.clock.now() / 1000);
    const headers = { 'content-type': 'application/json', 'user-agent': DELIVERY_USER_AGENT, ...deliveryHeaders(target.secret(), deliveryId, seconds, body) };
    const outcome = await this.#post(target.url, headers, body);
    this.#attempts.push({
      deliveryId,
      endpointId: target.endpointId,
      accountId: target.accountId,
      attempt: n + 1,
      at: new Date(this.clock.now()).toISOString(),
      ...outcome,
    });
    if (this.#attempts.length > 1000) this.#attempts.shift();
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const delay = this.delays[n];
    if (ok || delay === undefined || this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(target, deliveryId, body, n + 1);
    }, delay);
    this.#timers.add(timer);
  }

  #post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number | null; error?: string }> {
    return new Promise((resolve) => {
      let req: http.ClientRequest;
      try {
        const client = url.startsWith('https:') ? https : http;
        req = client.request(url, {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: false,
          timeout: this.timeoutMs,
        });
      } catch (e) {
        resolve({ status: null, error: (e as Error).message });
        return;
      }
      this.#requests.add(req);
      const done = (r: { status: number | null; error?: string }) => {
        this.#requests.delete(req);
        resolve(r);
      };
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? null }));
        res.on('error', (e) => done({ status: null, error: e.message }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (e) => done({ status: null, error: e.message }));
      req.end(body);
    });
  }

  /** The recorded attempts of an account's deliveries, oldest first. */
  attempts(accountId: string): DeliveryAttempt[] {
    return this.#attempts.filter((a) => a.accountId === accountId).map(({ accountId: _a, ...rest }) => rest);
  }

  /** Cancels pending retries and in-flight attempts; nothing is sent afterwards. */
  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const r of this.#requests) r.destroy();
    this.#requests.clear();
  }
}
