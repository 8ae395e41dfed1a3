import { CONCURRENCY_WINDOW_MS } from '../../contract/concurrency/shapes.js';

/** When a conversation was active: from its start (inclusive) to its end (exclusive). */
export interface Active {
  readonly start: number;
  readonly end: number;
}

/**
 * Peak concurrency per 5-minute window from `from` to `to` (both on 5-minute marks): for each
 * window, the most conversations active at once at any instant inside it. A conversation that
 * ends when another starts does not overlap it.
 *
 * @example
 * peaks([{ start: 0, end: 400_000 }, { start: 100_000, end: 200_000 }], 0, 600_000); // [2, 1]
 */
export function peaks(active: readonly Active[], from: number, to: number): number[] {
  const n = Math.max(0, Math.round((to - from) / CONCURRENCY_WINDOW_MS));
  const events: [number, number][] = [];
  for (const a of active) {
    if (a.end <= from || a.start >= to || a.end <= a.start) continue;
    events.push([Math.max(a.start, from), 1], [Math.min(a.end, to), -1]);
  }
  // Ends before starts at the same instant, so back-to-back conversations never count twice.
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = new Array<number>(n).fill(0);
  let live = 0;
  let i = 0;
  const at = (k: number) => (events[k] as [number, number])[0];
  for (let w = 0; w < n; w++) {
    const windowStart = from + w * CONCURRENCY_WINDOW_MS;
    const windowEnd = windowStart + CONCURRENCY_WINDOW_MS;
    // What is active at the window's first instant: everything up to and including it applied.
    while (i < events.length && at(i) <= windowStart) live += (events[i++] as [number, number])[1];
    let peak = live;
    while (i < events.length && at(i) < windowEnd) {
      live += (events[i] as [number, number])[1];
      peak = Math.max(peak, live);
      i++;
    }
    out[w] = peak;
  }
  return out;
}
