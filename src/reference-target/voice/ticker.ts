/** Called once per tick with the tick's index (monotonic, one per period since the ticker started). */
export type TickListener = (tick: number) => void;

/** How far behind the ticker may fall before it skips ticks instead of bursting to catch up. */
const MAX_CATCH_UP_TICKS = 5;

/**
 * One shared clock for every call's generated audio: a single timer instead of one per call, so 40 calls cost one
 * wake-up per period. It corrects drift against the monotonic clock (each tick is scheduled for `start + n * period`)
 * and runs only while something listens.
 *
 * @example
 * const ticker = new Ticker(20);
 * const stop = ticker.add((n) => sendFrame(n));
 * stop(); // the timer stops when the last listener leaves
 */
export class Ticker {
  readonly #listeners = new Set<TickListener>();
  #timer: NodeJS.Timeout | undefined;
  #start = 0;
  #tick = 0;
  /** Bumped on every (re)start, so a firing that outlived a stop and a restart does nothing more. */
  #generation = 0;
  #closed = false;

  constructor(readonly periodMs: number) {}

  /** Adds a listener; returns the function that removes it. */
  add(listener: TickListener): () => void {
    if (this.#closed) throw new Error('ticker is closed');
    this.#listeners.add(listener);
    if (!this.#timer) {
      this.#start = performance.now();
      this.#tick = 0;
      this.#generation++;
      this.#schedule();
    }
    return () => this.delete(listener);
  }

  delete(listener: TickListener): void {
    this.#listeners.delete(listener);
    if (this.#listeners.size === 0) this.#stop();
  }

  get size(): number {
    return this.#listeners.size;
  }

  /** Stops the timer for good and drops every listener. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#stop();
  }

  #stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    const due = this.#start + (this.#tick + 1) * this.periodMs;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, due - performance.now()));
  }

  #fire(): void {
    const generation = this.#generation;
    const elapsed = Math.floor((performance.now() - this.#start) / this.periodMs);
    // After a stall (GC, a busy event loop) skip ahead rather than send a burst of frames at once.
    if (elapsed - this.#tick > MAX_CATCH_UP_TICKS) this.#tick = elapsed - 1;
    while (this.#tick < elapsed) {
      this.#tick++;
      for (const listener of this.#listeners) {
        try {
          listener(this.#tick);
        } catch {
          // One call's failure must not silence every other call.
        }
      }
      if (!this.#timer || generation !== this.#generation) return;
    }
    this.#schedule();
  }
}
