import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ticker } from './ticker.js';

describe('Ticker', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks every listener once per period with increasing tick numbers', () => {
    const ticker = new Ticker(20);
    const a: number[] = [];
    const b: number[] = [];
    ticker.add((n) => a.push(n));
    ticker.add((n) => b.push(n));
    vi.advanceTimersByTime(100);
    expect(a).toEqual([1, 2, 3, 4, 5]);
    expect(b).toEqual(a);
    ticker.close();
  });

  it('stops its timer when the last listener leaves and starts again on the next', () => {
    const ticker = new Ticker(20);
    const seen: number[] = [];
    const stop = ticker.add((n) => seen.push(n));
    vi.advanceTimersByTime(40);
    stop();
    expect(vi.getTimerCount()).toBe(0);
    ticker.add((n) => seen.push(n));
    vi.advanceTimersByTime(20);
    expect(seen).toEqual([1, 2, 1]);
    ticker.close();
  });

  it('keeps going when one listener throws', () => {
    const ticker = new Ticker(20);
    const seen: number[] = [];
    ticker.add(() => {
      throw new Error('one bad call');
    });
    ticker.add((n) => seen.push(n));
    vi.advanceTimersByTime(60);
    expect(seen).toEqual([1, 2, 3]);
    ticker.close();
  });

  it('skips ahead after a long stall instead of bursting every missed tick', () => {
    const ticker = new Ticker(20);
    const seen: number[] = [];
    ticker.add((n) => seen.push(n));
    // A stall: the clock jumps 1 s while no timer could fire.
    vi.setSystemTime(Date.now());
    const now = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(now + 1000);
    vi.advanceTimersByTime(20);
    vi.restoreAllMocks();
    expect(seen.length).toBeLessThanOrEqual(2);
    ticker.close();
  });

  it('refuses listeners once closed', () => {
    const ticker = new Ticker(20);
    ticker.close();
    expect(() => ticker.add(() => {})).toThrow('ticker is closed');
  });
});
