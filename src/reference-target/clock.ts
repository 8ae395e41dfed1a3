/** The target's only source of time, so time-based rules can be checked in seconds. */
export interface Clock {
  now(): number;
}

/**
 * Real time plus an offset that the control surface can advance. Advancing never goes backwards,
 * so timestamps the target has handed out stay ordered.
 *
 * @example
 * const clock = new AdjustableClock();
 * clock.advance(10 * 60_000); // ten minutes pass at once
 */
export class AdjustableClock implements Clock {
  #offset = 0;
  now(): number {
    return Date.now() + this.#offset;
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance takes a non-negative number of milliseconds');
    this.#offset += ms;
  }
  get offset(): number {
    return this.#offset;
  }
}
