import { describe, expect, it } from 'vitest';
import { type Distribution, formatDistribution, meanOf, parseDistribution, sample } from './distribution.js';
import { SeededRandom } from './ids.js';

/** The q-quantile of sorted values (nearest rank). */
const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

/** 10,000 draws of `d` from a fixed seed, sorted. */
function draws(d: Distribution, seed = 42): number[] {
  const u = new SeededRandom(seed);
  return Array.from({ length: 10_000 }, () => sample(d, u)).sort((a, b) => a - b);
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('latency distributions', () => {
  it('reads durations as k6 writes them (Go durations), and refuses a negative one or a number without its unit', () => {
    const fixed = (text: string) => {
      const parsed = parseDistribution(`fixed:${text}`);
      return 'distribution' in parsed && parsed.distribution.kind === 'fixed' ? parsed.distribution.ms : undefined;
    };
    expect(['1500ms', '1.5s', '80ms', '0ms', '2m'].map(fixed)).toEqual([1500, 1500, 80, 0, 120_000]);
    for (const bad of ['1.5', '-1s', 's', '1,5s', '']) expect(fixed(bad), bad).toBeUndefined();
  });

  it('parses each distribution and writes it back the same way', () => {
    for (const text of ['fixed:1.2s', 'lognormal:p50=1.5s,p95=4.5s', 'uniform:min=50ms,max=150ms', 'lognormal:p50=80ms,p95=250ms']) {
      const parsed = parseDistribution(text);
      if (!('distribution' in parsed)) throw new Error(parsed.error);
      expect(formatDistribution(parsed.distribution)).toBe(text);
    }
    expect(parseDistribution('lognormal: p95=4500ms, p50=1.5s')).toEqual({ distribution: { kind: 'lognormal', p50: 1500, p95: 4500 } });
  });

  it.each([
    ['gamma:k=2', "unknown distribution 'gamma'; known: fixed:, lognormal:, uniform:"],
    ['fixed', "fixed needs its parameters after 'fixed:'"],
    ['fixed:soon', "fixed needs one duration (e.g. fixed:1.2s), got 'soon'"],
    ['lognormal:p50=1.5s', "lognormal needs p50=DURATION,p95=DURATION, got 'p50=1.5s'"],
    ['lognormal:p50=1.5s,p99=4s', "lognormal needs p50=DURATION,p95=DURATION, got 'p50=1.5s,p99=4s'"],
    ['lognormal:p50=1.5,p95=4.5s', "'1.5' is not a duration (e.g. 1500ms or 1.5s)"],
    ['lognormal:p50=2s,p95=1s', 'lognormal needs p95 (1s) above p50 (2s); for a constant use fixed:'],
    ['lognormal:p50=0ms,p95=1s', 'lognormal needs p50 above 0'],
    ['uniform:min=2s,max=1s', 'uniform needs max (1s) not below min (2s)'],
  ])('refuses %s with a one-line reason', (text, error) => {
    expect(parseDistribution(text)).toEqual({ error });
  });

  it('draws a lognormal whose median and 95th percentile over 10,000 seeded draws are within 4 % of p50 and p95', () => {
    const d: Distribution = { kind: 'lognormal', p50: 1500, p95: 4500 };
    const sorted = draws(d);
    expect(Math.abs(quantile(sorted, 0.5) / 1500 - 1)).toBeLessThan(0.04);
    expect(Math.abs(quantile(sorted, 0.95) / 4500 - 1)).toBeLessThan(0.04);
    // Its mean is exp(mu + sigma²/2), above the median: about 1875 ms here.
    expect(meanOf(d)).toBeCloseTo(1875, -1);
    expect(Math.abs(mean(sorted) / meanOf(d) - 1)).toBeLessThan(0.04);
  });

  it('draws the short API-call lognormal as closely', () => {
    const sorted = draws({ kind: 'lognormal', p50: 80, p95: 250 }, 7);
    expect(Math.abs(quantile(sorted, 0.5) / 80 - 1)).toBeLessThan(0.04);
    expect(Math.abs(quantile(sorted, 0.95) / 250 - 1)).toBeLessThan(0.04);
  });

  it('draws a uniform inside its bounds with its mean in the middle, and a fixed time always', () => {
    const sorted = draws({ kind: 'uniform', min: 50, max: 150 });
    expect(sorted[0]).toBeGreaterThanOrEqual(50);
    expect(sorted.at(-1)).toBeLessThan(150);
    expect(Math.abs(mean(sorted) - 100)).toBeLessThan(2);
    expect(new Set(draws({ kind: 'fixed', ms: 1200 }))).toEqual(new Set([1200]));
  });

  it('gives the same draws from the same seed', () => {
    const d: Distribution = { kind: 'lognormal', p50: 60, p95: 200 };
    expect(draws(d, 9)).toEqual(draws(d, 9));
    expect(draws(d, 9)).not.toEqual(draws(d, 10));
  });
});
