/**
 * A small seeded generator (mulberry32): the same seed gives the same fuzz inputs, so any finding can be replayed.
 *
 * @example
 * const rng = new FuzzRng(7);
 * rng.pick(['a', 'b']); // always the same for seed 7
 */
export class FuzzRng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
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
