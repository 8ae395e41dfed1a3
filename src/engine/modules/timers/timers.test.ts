import { describe, expect, it } from 'vitest';
import { testVu } from '../test-vu.js';
import { timersModule } from './timers.js';

describe('k6/timers', () => {
  // http.asyncRequest: "the iteration only stops once all async jobs finish"; a job a timer's callback starts is one.
  it('holds the iteration for what a timeout callback starts, not only until the callback ran', async () => {
    const vu = testVu();
    const t = timersModule(vu);
    const order: string[] = [];
    t.setTimeout(() => {
      order.push(`callback, ${vu.pending()} held`);
      vu.track(new Promise<void>((r) => setTimeout(() => r(void order.push('request answered')), 20)));
    }, 1);
    await vu.settled(10_000);
    order.push('iteration ended');
    expect(order).toEqual(['callback, 1 held', 'request answered', 'iteration ended']);
  });

  it('releases the iteration once an interval is cleared', async () => {
    const vu = testVu();
    const t = timersModule(vu);
    let runs = 0;
    const id = t.setInterval(() => {
      if (++runs === 3) t.clearInterval(id);
    }, 1);
    await vu.settled(10_000);
    expect(runs).toBe(3);
  });
});
