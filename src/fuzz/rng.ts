import { SeededRandom } from '../reference-target/ids.js';

/**
 * The target's seeded generator (mulberry32) with the picks the fuzz needs: the same seed gives the same fuzz inputs,
 * so any finding can be replayed.
 *
 * @example
 * const rng = new FuzzRng(7);
 * rng.pick(['a', 'b']); // always the same for seed 7
 */
export class FuzzRng extends SeededRandom {
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}
