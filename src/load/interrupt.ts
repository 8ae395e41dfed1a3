// A command stopped from outside (Ctrl-C, a cancelled CI job, an evicted pod): the first SIGINT, SIGTERM or SIGHUP is
// recorded and told to whatever runs (the engine it spawned stops its load and writes what ran; a search stops after
// its step), so the command can still write its report, marked interrupted. A second signal ends everything at once.
import { EXIT } from '../errors.js';

/** When a command was interrupted, and by which signal: what its reports say. */
export interface Interruption {
  readonly signal: StopSignal;
  /** ISO time the signal arrived. */
  readonly at: string;
}

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

let current: Interruption | undefined;
const listeners = new Set<(i: Interruption) => void>();
const hardStops = new Set<() => void>();
const handlers = new Map<StopSignal, () => void>();
let holders = 0;

/** The interruption of this process, once a stop signal arrived. */
export const interruption = (): Interruption | undefined => current;

/**
 * From here on, the first stop signal is recorded and told to every `onInterrupt` listener instead of ending the
 * process; a second runs every `onHardStop` (children killed) and exits with EXIT.interrupted. A command calls it once
 * for its whole life; a part that needs it for a while (an engine running) calls the release it returns, and the
 * signals end the process again once nothing holds them (an in-process caller, a test, keeps its own handling).
 *
 * @example
 * catchInterrupts(); … if (interruption()) result.interrupted = interruption();
 */
export function catchInterrupts(): () => void {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    if (--holders > 0) return;
    for (const [signal, h] of handlers) process.off(signal, h);
    handlers.clear();
  };
  if (holders++ > 0) return release;
  for (const signal of STOP_SIGNALS) {
    const h = () => {
      if (current) {
        process.stderr.write(`dialtone: ${signal} again: stopping at once\n`);
        for (const stop of hardStops) stop();
        process.exit(EXIT.interrupted);
      }
      current = { signal, at: new Date().toISOString() };
      process.stderr.write(`dialtone: ${signal}: stopping; what ran is written and marked interrupted (send it again to stop at once)\n`);
      for (const l of listeners) l(current);
    };
    handlers.set(signal, h);
    process.on(signal, h);
  }
  return release;
}

/** Calls `fn` on the first stop signal (at once when one already came); returns what removes it. */
export function onInterrupt(fn: (i: Interruption) => void): () => void {
  if (current) fn(current);
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Calls `fn` on a second stop signal, just before the process exits; returns what removes it. */
export function onHardStop(fn: () => void): () => void {
  hardStops.add(fn);
  return () => hardStops.delete(fn);
}
