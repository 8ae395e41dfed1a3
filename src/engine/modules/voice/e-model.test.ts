import { describe, expect, it } from 'vitest';
import { mosOf, mouthToEarMs, rFactor } from './e-model.js';

describe('the E-model estimate (G.107, simplified)', () => {
  it('gives a clean call the default R of 93.2 and a MOS of about 4.4', () => {
    expect(rFactor({ delayMs: 0, loss: 0 })).toBeCloseTo(93.2, 5);
    expect(mosOf(93.2)).toBeCloseTo(4.41, 2);
  });

  it('takes 0.024 per millisecond of delay, and 0.11 more past 177.3 ms', () => {
    expect(rFactor({ delayMs: 100, loss: 0 })).toBeCloseTo(93.2 - 2.4, 5);
    expect(rFactor({ delayMs: 277.3, loss: 0 })).toBeCloseTo(93.2 - 0.024 * 277.3 - 11, 5);
  });

  it('takes loss through the codec robustness of G.711 with concealment (Bpl 25.1)', () => {
    // 5 % random loss: Ie,eff = 95 · 5 / (5 + 25.1)
    expect(rFactor({ delayMs: 0, loss: 0.05 })).toBeCloseTo(93.2 - (95 * 5) / 30.1, 5);
    expect(mosOf(rFactor({ delayMs: 0, loss: 0.05 }))).toBeLessThan(mosOf(rFactor({ delayMs: 0, loss: 0.01 })));
  });

  it('bounds the MOS to 1 and 4.5', () => {
    expect(mosOf(-5)).toBe(1);
    expect(mosOf(120)).toBe(4.5);
  });

  it('reads one-way delay as half the round trip, one frame and a jitter buffer of twice the jitter', () => {
    expect(mouthToEarMs({ rttMs: 40, jitterMs: 5, frameMs: 20 })).toBe(50);
    expect(mouthToEarMs({ rttMs: null, jitterMs: 0, frameMs: 20 })).toBe(20);
  });
});
