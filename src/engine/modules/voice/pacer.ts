// One 20 ms clock per engine thread for every call it holds: a timer per call costs a timer callback per call per
// frame, and drifts on its own. Each tick sends one frame of every call; a late tick sends what it missed, up to a
// bound, so a call's sender keeps its clock the way a microphone does.

/** The most frames one call catches up on a late tick: beyond that, a stalled thread drops audio as a device would. */
const MAX_CATCH_UP = 5;

/** A call's sender, ticked once per frame. */
export type FrameSender = () => void;

/** The thread's shared frame clock. */
export class Pacer {
  readonly #senders = new Set<FrameSender>();
  #timer: NodeJS.Timeout | undefined;
  #next = 0;

  constructor(private readonly frameMs: number) {}

  /** Sends one frame of `send` on every tick from the next on; returns the function that stops it. */
  add(send: FrameSender): () => void {
    this.#senders.add(send);
    if (!this.#timer) {
      this.#next = performance.now() + this.frameMs;
      this.#schedule();
    }
    return () => {
      this.#senders.delete(send);
      if (this.#senders.size === 0 && this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  get size(): number {
    return this.#senders.size;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, this.#next - performance.now()));
    // The clock never keeps a thread alive: the calls it serves do.
    this.#timer.unref();
  }

  #tick(): void {
    const now = performance.now();
    let due = 0;
    while (this.#next <= now && due < MAX_CATCH_UP) {
      due++;
      this.#next += this.frameMs;
    }
    if (this.#next <= now) this.#next = now + this.frameMs;
    for (let i = 0; i < due; i++) for (const send of this.#senders) send();
    if (this.#senders.size > 0) this.#schedule();
    else this.#timer = undefined;
  }
}
