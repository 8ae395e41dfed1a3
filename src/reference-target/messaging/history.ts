import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { HistoryEvent } from '../../contract/messaging/shapes.js';

/** Frames of one history are one per line: JSON.stringify escapes every newline inside a frame. */
const SEPARATOR = '\n';

/**
 * The events a messaging session broadcast, oldest first, as the frames that were sent: what EVENT_TYPE_EVENT_BATCH
 * replays. A session is kept for its documented idle expiry (10 minutes) after its sockets close, so a client may
 * resume it; kept as objects, its events were most of what the target held (scripts/retained-heap.ts measures it).
 * `pack()` deflates the frames into one string (about 1 KB) when no socket is left to send to; an event broadcast after
 * that goes to a short unpacked tail, and reading unpacks.
 *
 * @example
 * const history = new SessionHistory();
 * const frame = history.push(event); // the JSON every socket of the session is sent
 * history.pack();
 * history.from(0); // [event], parsed again
 */
export class SessionHistory {
  /** Deflated frames, older than every tail frame; each byte one latin1 character, so the heap holds exactly its size. */
  #packed = '';
  #packedCount = 0;
  #tail: string[] = [];

  /** Appends an event and returns its frame. */
  push(event: HistoryEvent): string {
    const frame = JSON.stringify(event);
    this.#tail.push(frame);
    return frame;
  }

  get length(): number {
    return this.#packedCount + this.#tail.length;
  }

  /** Whether any frame is held deflated. */
  get packed(): boolean {
    return this.#packedCount > 0;
  }

  /** Characters held: the deflated frames and the unpacked ones. */
  get chars(): number {
    return this.#packed.length + this.#tail.reduce((n, f) => n + f.length, 0);
  }

  /** The events from index `from` on, parsed from their frames. */
  from(from: number): HistoryEvent[] {
    const frames = from >= this.#packedCount ? this.#tail.slice(from - this.#packedCount) : [...this.#unpack().slice(from), ...this.#tail];
    return frames.map((f) => JSON.parse(f) as HistoryEvent);
  }

  /** Deflates every frame into one string; cheap to call again (a history with no new frame is left as it is). */
  pack(): void {
    if (this.#tail.length === 0) return;
    const frames = [...this.#unpack(), ...this.#tail];
    this.#packed = deflateRawSync(frames.join(SEPARATOR)).toString('latin1');
    this.#packedCount = frames.length;
    this.#tail = [];
  }

  #unpack(): string[] {
    return this.#packedCount === 0 ? [] : inflateRawSync(Buffer.from(this.#packed, 'latin1')).toString('utf8').split(SEPARATOR);
  }
}
