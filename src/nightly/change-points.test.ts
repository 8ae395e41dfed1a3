import { describe, expect, it } from 'vitest';
import { bestSplit, changePoints, segmentsOf } from './change-points.js';
import { seeded } from './noise.js';

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const noise = (seed: number, n: number, level = 100, sd = 5) => {
  const r = seeded(seed);
  return Array.from({ length: n }, () => level + sd * gauss(r));
};

/** E-divisive's statistic at one split, summed pair by pair: what the incremental sums must agree with. */
function qNaive(xs: readonly number[], from: number, tau: number, to: number): number {
  const left = xs.slice(from, tau);
  const right = xs.slice(tau, to);
  const pairs = (a: number[], b: number[]) => a.reduce((s, x) => s + b.reduce((t, y) => t + Math.abs(x - y), 0), 0);
  const n = left.length;
  const m = right.length;
  const within = (a: number[]) => pairs(a, a) / 2;
  return ((n * m) / (n + m)) * ((2 * pairs(left, right)) / (n * m) - (2 * within(left)) / (n * (n - 1)) - (2 * within(right)) / (m * (m - 1)));
}

describe('change points by E-divisive means and a t-test', () => {
  it('splits where the pair-by-pair energy statistic is largest', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const xs = [...noise(seed, 17), ...noise(seed + 100, 13, 100 + seed)];
      const from = seed % 3;
      const to = xs.length - (seed % 4);
      let best = from + 5;
      for (let tau = from + 5; tau <= to - 5; tau++) if (qNaive(xs, from, tau, to) > qNaive(xs, from, best, to) + 1e-9) best = tau;
      expect(bestSplit(xs, from, to, 5), `seed ${seed}`).toBe(best);
    }
  });

  it('finds a step where it is, and both steps of a series that moves twice', () => {
    const one = [...noise(1, 30), ...noise(2, 20, 130)];
    expect(changePoints(one).map((c) => c.index)).toEqual([30]);
    const two = [...noise(3, 25), ...noise(4, 20, 130), ...noise(5, 20, 105)];
    expect(changePoints(two).map((c) => c.index)).toEqual([25, 45]);
    expect(segmentsOf(two, changePoints(two)).map((s) => Math.round(s.moments.mean / 5) * 5)).toEqual([100, 130, 105]);
  });

  it('finds no change point in pure noise, in a constant series, or in a series too short to split', () => {
    for (let seed = 1; seed <= 50; seed++) expect(changePoints(noise(seed, 80)), `seed ${seed}`).toEqual([]);
    expect(changePoints(Array(40).fill(0))).toEqual([]);
    expect(changePoints([1, 1, 1, 9, 9, 9])).toEqual([]);
  });

  it('leaves no stretch shorter than the minimum on either side of a change point, even for a step near an end', () => {
    for (let k = 3; k <= 6; k++) {
      const late = [...noise(6 + k, 40), ...noise(20 + k, k, 200)];
      const early = [...noise(30 + k, k, 200), ...noise(40 + k, 40)];
      for (const xs of [late, early]) {
        const found = changePoints(xs);
        expect(found.length, `${k} nights at the other level`).toBe(1);
        for (const c of found) expect(Math.min(c.index, xs.length - c.index)).toBeGreaterThanOrEqual(5);
      }
      expect(changePoints(late)[0]?.index).toBe(Math.min(40, late.length - 5));
    }
  });

  it('takes one wild night at either end for noise, not a new level', () => {
    expect(changePoints([...noise(9, 40), 200])).toEqual([]);
    expect(changePoints([200, ...noise(10, 40)])).toEqual([]);
  });
});
