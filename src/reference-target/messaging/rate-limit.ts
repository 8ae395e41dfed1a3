import type { Clock } from '../clock.js';
import type { RateLimit } from './config.js';

/** Ended windows are swept once this many are held: one per session at 10 sessions a second is 100 s of them. */
const SWEEP_FLOOR = 1000;

/** The key that limits a connector's access-token requests. */
export const accessTokenLimitKey = (connectorId: string) => `access-token:${connectorId}`;

/** The outcome of one hit: allowed, or refused with the whole seconds until the window resets. */
export type RateVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterS: number };

/**
 * Fixed-window counters keyed by whatever the caller limits (an access token, a session). Time comes from the
 * target clock, so advancing it opens a new window.
 *
 * @example
 * const limiter = new RateLimiter(clock);
 * limiter.hit('session:s1', { limit: 2, window_ms: 60_000 }); // { ok: true }
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; end: number; count: number }>();
  /** Held windows at which the next sweep runs: twice what the last one left, at least 1,000, so sweeps stay rare. */
  #sweepAt = SWEEP_FLOOR;
  constructor(private readonly clock: Clock) {}

  hit(key: string, limit: RateLimit): RateVerdict {
    const now = this.clock.now();
    let w = this.#windows.get(key);
    if (!w || now >= w.end) {
      if (this.#windows.size >= this.#sweepAt) this.#sweep(now);
      w = { start: now, end: now + limit.window_ms, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    if (w.count <= limit.limit) return { ok: true };
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((w.end - now) / 1000)) };
  }

  /** Moves one key's window `ms` into the past, as if that much time had passed for it alone; false when it holds none. */
  age(key: string, ms: number): boolean {
    const w = this.#windows.get(key);
    if (!w) return false;
    w.start -= ms;
    w.end -= ms;
    return true;
  }

  /** Drops windows that have ended, so keys of finished sessions do not pile up. */
  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now >= w.end) this.#windows.delete(key);
    this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.#windows.size);
  }

  /** Windows held, ended ones not yet swept included. */
  get size(): number {
    return this.#windows.size;
  }
}
