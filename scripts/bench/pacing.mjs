// The two pacings the engine bench's reference clients share (scripts/bench/undici-rate.mjs, lean-rate.mjs), so each
// client differs from the other only in how it sends one request. 'smooth': an arrival every 1/overallRate s, as k6's
// constant-arrival-rate executor starts iterations, each on an idle connection; 'bursts': autocannon's overallRate, each
// connection sending its share of a second back to back as answers arrive, then waiting for the next second.

/**
 * Starts sending on `connections` at `overallRate` a second; `send(c, then)` sends one request on `c` and calls `then`
 * once it ended. Returns the timers, for the caller to clear when it stops.
 *
 * @example
 * const timers = pace(connections, 2000, 'smooth', send);
 * setTimeout(() => timers.forEach(clearInterval), 20_000);
 */
export function pace(connections, overallRate, pacing, send) {
  const timers = [];
  if (pacing === 'bursts') {
    const share = overallRate / connections.length;
    for (const c of connections) {
      let made = 0;
      const next = () => {
        if (made < share) {
          made++;
          send(c, next);
        }
      };
      timers.push(
        setInterval(() => {
          made = 0;
          next();
        }, 1000),
      );
      next();
    }
    return timers;
  }
  const start = performance.now();
  const idle = [...connections];
  let due = 0;
  timers.push(
    setInterval(() => {
      const want = Math.floor(((performance.now() - start) / 1000) * overallRate);
      for (; due < want; due++) {
        const c = idle.pop();
        if (c) send(c, () => idle.push(c));
      }
    }, 1),
  );
  return timers;
}
