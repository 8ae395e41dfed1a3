// `k6/timers` (/javascript-api/k6-timers/): setTimeout and setInterval that keep the iteration alive while they are
// pending, and die with an interrupted iteration.
import type { VuHost } from '../../types.js';

/** The `k6/timers` module for one VU; its functions are also the script's globals. */
export function timersModule(vu: VuHost) {
  const timers = new Map<number, { handle: NodeJS.Timeout; release: () => void }>();
  let next = 1;
  const clear = (id: unknown) => {
    const t = timers.get(id as number);
    if (!t) return;
    clearTimeout(t.handle);
    clearInterval(t.handle);
    timers.delete(id as number);
    t.release();
  };
  const start = (repeat: boolean, fn: (...a: unknown[]) => unknown, ms: unknown, args: unknown[]): number => {
    if (typeof fn !== 'function') throw new TypeError('k6/timers: the callback must be a function');
    const id = next++;
    const release = vu.hold();
    const signal = vu.signal;
    const run = () => {
      if (!repeat) timers.delete(id);
      if (!signal.aborted)
        try {
          // A callback the script's rewrite made async (it makes blocking calls) holds the iteration until it settles.
          const r = fn(...args);
          if (r instanceof Promise) vu.track(r).catch((e) => vu.error(e));
        } catch (e) {
          vu.error(e);
        }
      // Released after the callback ran: what it started (a request, another timer) holds the iteration from then on.
      if (!repeat) release();
    };
    const delay = Math.max(0, Number(ms) || 0);
    const handle = repeat ? setInterval(run, delay) : setTimeout(run, delay);
    timers.set(id, { handle, release });
    signal.addEventListener('abort', () => clear(id), { once: true });
    return id;
  };
  return {
    setTimeout: (fn: (...a: unknown[]) => unknown, ms?: number, ...args: unknown[]) => start(false, fn, ms, args),
    setInterval: (fn: (...a: unknown[]) => unknown, ms?: number, ...args: unknown[]) => start(true, fn, ms, args),
    clearTimeout: clear,
    clearInterval: clear,
  };
}
