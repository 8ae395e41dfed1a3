/**
 * The agent seats of a gateway at a known voice capacity (`--capacity voice=N`): N calls at once. A call beyond them
 * waits, first come first served, for a live call to end: its offer's answer is held until then (what is queued is
 * the offer). Media, candidates and the agent's turns of a seated call are never queued.
 *
 * @example
 * const seats = new Seats(2);
 * await seats.take('vs-1'); // at once: a seat was free
 * seats.release('vs-1');
 */
export class Seats {
  readonly #held = new Set<string>();
  readonly #waiting: { readonly id: string; readonly seat: () => void }[] = [];

  constructor(readonly size: number) {}

  /** Resolves once `id` holds a seat. */
  take(id: string): Promise<void> {
    if (this.#held.size < this.size) {
      this.#held.add(id);
      return Promise.resolve();
    }
    return new Promise((seat) => this.#waiting.push({ id, seat }));
  }

  /** Frees the seat of `id` (or drops it from the queue) and seats the next call waiting; harmless for an unknown id. */
  release(id: string): void {
    const i = this.#waiting.findIndex((w) => w.id === id);
    if (i >= 0) this.#waiting.splice(i, 1);
    if (!this.#held.delete(id)) return;
    const next = this.#waiting.shift();
    if (!next) return;
    this.#held.add(next.id);
    next.seat();
  }

  /** Calls seated and calls waiting, for the control surface. */
  get counts(): { readonly seated: number; readonly waiting: number } {
    return { seated: this.#held.size, waiting: this.#waiting.length };
  }
}
