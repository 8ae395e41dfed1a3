// How busy a target is: a sliding one-second count of events per target, for the defects that only
// show under load (the gate under load, `dialtone conformance --under-load`, must be able to fail).
import type { TargetContext } from './context.js';

const WINDOW_MS = 1000;

/** Events of one kind in the last second. */
class Meter {
  readonly #times: number[] = [];
  hit(now = Date.now()): void {
    this.#times.push(now);
    this.#trim(now);
  }
  perSecond(now = Date.now()): number {
    this.#trim(now);
    return this.#times.length;
  }
  #trim(now: number) {
    while (this.#times.length && (this.#times[0] as number) <= now - WINDOW_MS) this.#times.shift();
  }
}

const meters = new WeakMap<TargetContext, Map<string, Meter>>();

/**
 * The meter named `name` of one target.
 *
 * @example
 * loadMeter(ctx, 'chat.create').hit(); loadMeter(ctx, 'chat.create').perSecond(); // 1
 */
export function loadMeter(ctx: TargetContext, name: string): Meter {
  const byName = meters.get(ctx) ?? new Map<string, Meter>();
  meters.set(ctx, byName);
  const m = byName.get(name) ?? new Meter();
  byName.set(name, m);
  return m;
}

/** Conversations started in the last second above which `chat-close-fails-under-load` shows. */
export const CHAT_LOAD_DEFECT_PER_SECOND = 25;
