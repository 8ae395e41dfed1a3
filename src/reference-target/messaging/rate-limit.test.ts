import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../clock.js';
import { RateLimiter } from './rate-limit.js';

const limit = { limit: 2, window_ms: 60_000 };

describe('the fixed-window rate limiter', () => {
  it('allows up to the limit and refuses the next hit with a positive Retry-After', () => {
    const limiter = new RateLimiter(new AdjustableClock());
    expect(limiter.hit('k', limit)).toEqual({ ok: true });
    expect(limiter.hit('k', limit)).toEqual({ ok: true });
    const third = limiter.hit('k', limit);
    expect(third.ok).toBe(false);
    if (!third.ok) expect(third.retryAfterS).toBeGreaterThanOrEqual(59);
  });

  it('ages one key’s window alone: the Retry-After it announced runs out for that key and no other', () => {
    const limiter = new RateLimiter(new AdjustableClock());
    for (const key of ['a', 'b']) for (let i = 0; i < 2; i++) limiter.hit(key, limit);
    const refused = limiter.hit('a', limit);
    const s = refused.ok ? 0 : refused.retryAfterS;
    expect(limiter.age('a', (s * 1000) / 2)).toBe(true);
    expect(limiter.hit('a', limit).ok).toBe(false);
    expect(limiter.age('a', (s * 1000) / 2)).toBe(true);
    expect(limiter.hit('a', limit)).toEqual({ ok: true });
    expect(limiter.hit('b', limit).ok).toBe(false);
    expect(limiter.age('none', 1000)).toBe(false);
  });

  it('counts each key on its own', () => {
    const limiter = new RateLimiter(new AdjustableClock());
    limiter.hit('a', limit);
    limiter.hit('a', limit);
    expect(limiter.hit('b', limit)).toEqual({ ok: true });
  });

  it('opens a new window once the clock has moved past the old one', () => {
    const clock = new AdjustableClock();
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 3; i++) limiter.hit('k', limit);
    clock.advance(60_000);
    expect(limiter.hit('k', limit)).toEqual({ ok: true });
  });

  it('lets ended windows go, so a key per session (10 a second, 10 s windows) holds a few hundred windows, not one per session', () => {
    const clock = new AdjustableClock();
    const limiter = new RateLimiter(clock);
    let most = 0;
    for (let session = 0; session < 20_000; session++) {
      limiter.hit(`socket:sess_${session}`, { limit: 200, window_ms: 10_000 });
      clock.advance(100);
      most = Math.max(most, limiter.size);
    }
    // 100 live windows at any time; ended ones wait for a sweep, which runs at 1,000 held or twice what it left.
    expect(most).toBeLessThanOrEqual(1_000);
  });
});
