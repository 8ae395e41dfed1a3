import { describe, expect, it } from 'vitest';
import { aboutMinutes, MINUTE_MS, realTime, sleepUntil } from './slow.js';

describe('real-time case options', () => {
  it('need the slow capability, get their waits plus five minutes as timeout, and say how long they take', () => {
    expect(realTime(11 * MINUTE_MS)).toEqual({ needs: ['slow'], timeoutMs: 16 * MINUTE_MS, takes: 'about 11 minutes' });
    expect(realTime(MINUTE_MS, 'as long as expires_in').takes).toBe('as long as expires_in');
  });

  it('say long waits in hours and minutes', () => {
    expect(aboutMinutes(105 * MINUTE_MS)).toBe('about 1 h 45 min');
    expect(aboutMinutes(135 * MINUTE_MS)).toBe('about 2 h 15 min');
    expect(aboutMinutes(5 * MINUTE_MS + 1)).toBe('about 6 minutes');
  });

  it('wait until the wall-clock deadline, and not at all for one already past', async () => {
    const t0 = Date.now();
    await sleepUntil(t0 - 1000);
    expect(Date.now() - t0).toBeLessThan(50);
    await sleepUntil(t0 + 120);
    expect(Date.now()).toBeGreaterThanOrEqual(t0 + 120);
  });
});
