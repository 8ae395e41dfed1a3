/**
 * A small seeded generator (mulberry32): the same seed gives the same ids and data, so a run can
 * be replayed. Not for secrets: those come from node:crypto.
 */
export class SeededRandom {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let s = '';
    while (s.length < n)
      s += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, n);
  }
}
