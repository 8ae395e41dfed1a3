import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.js';

const draws = (next: () => number, n: number) => Array.from({ length: n }, () => next());

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, as k6 documents for randomSeed: a reproducible number', () => {
    expect(draws(seededRandom(123456789), 1000)).toEqual(draws(seededRandom(123456789), 1000));
  });

  it('gives another sequence for another seed', () => {
    const a = draws(seededRandom(1), 100);
    const b = draws(seededRandom(2), 100);
    expect(a.filter((x, i) => x === b[i])).toEqual([]);
  });

  it('cuts a fraction to its integer part, as k6 takes the seed as an integer', () => {
    expect(draws(seededRandom(7.9), 10)).toEqual(draws(seededRandom(7), 10));
  });

  it('draws numbers in [0, 1) spread evenly, past its first block of 512 numbers', () => {
    const xs = draws(seededRandom(42), 20_000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    // Ten bins, 2,000 expected in each, within 10 %: the seed fixes the numbers, so this cannot fail by chance.
    const bins = Array.from({ length: 10 }, () => 0);
    for (const x of xs) bins[Math.floor(x * 10)] = (bins[Math.floor(x * 10)] ?? 0) + 1;
    for (const n of bins) expect(Math.abs(n - 2000)).toBeLessThan(200);
    expect(new Set(xs).size).toBe(xs.length);
  });
});
