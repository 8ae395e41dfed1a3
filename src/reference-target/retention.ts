// How much the reference target keeps of what it served (`dialtone target --retain N --retain-age DURATION`): a bound
// per store on finished items, so a long run (the soak, a sandbox left up for days) does not grow without end.
import { durationMs } from '../core/duration.js';
import type { Clock } from './clock.js';

/** The bound on finished items of one store: at most `maxCount` of them, none kept longer than `maxAgeMs` after it finished. */
export interface Retention {
  readonly maxCount: number;
  readonly maxAgeMs: number;
}

/**
 * Large enough that no conformance case or test notices (a case reads its own records within minutes), small enough that
 * the soak's chat-turns (40 conversations a second, about 1.8 KB each kept) fills it in its first 5 minutes.
 */
export const DEFAULT_RETENTION: Retention = { maxCount: 10_000, maxAgeMs: 60 * 60_000 };

/** The variables that give a target started by any command a retention; the flags win. */
export const RETAIN_ENV = 'DIALTONE_TARGET_RETAIN';
export const RETAIN_AGE_ENV = 'DIALTONE_TARGET_RETAIN_AGE';

type Parsed = { readonly value: number } | { readonly error: string };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads a count of finished items to keep: a positive whole number, digits only.
 *
 * @example
 * parseRetainCount('500') // { value: 500 }
 * parseRetainCount('none') // { error: "--retain must be a positive whole number, got 'none'" }
 */
export function parseRetainCount(text: string, label = '--retain'): Parsed {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) return { error: `${label} must be a positive whole number, got '${text}'` };
  return { value };
}

/**
 * Reads how long a finished item is kept: a positive Go duration, as k6 reads one (ms, s, m, h; `1h30m` too).
 *
 * @example
 * parseRetainAge('30m') // { value: 1_800_000 }
 * parseRetainAge('1.5h') // { value: 5_400_000 }
 */
export function parseRetainAge(text: string, label = '--retain-age'): Parsed {
  const ms = durationMs(text.trim());
  const value = ms === undefined ? Number.NaN : Math.round(ms);
  if (!(value >= 1) || !Number.isSafeInteger(value)) return { error: `${label} must be a positive duration such as 90s, 30m or 2h, got '${text}'` };
  return { value };
}

/** A flag's text, else the variable's (unset or blank: none), with the label an error should name. */
function pick(flag: string | undefined, env: NodeJS.ProcessEnv, name: string, flagName: string): { text: string; label: string } | undefined {
  if (flag !== undefined) return { text: flag, label: flagName };
  const text = env[name];
  return text === undefined || text.trim() === '' ? undefined : { text, label: name };
}

/**
 * The retention of a target: each bound from its flag, else its variable (DIALTONE_TARGET_RETAIN,
 * DIALTONE_TARGET_RETAIN_AGE), else the default. A bad value is a one-line error naming the flag or variable.
 *
 * @example
 * retentionOf({ age: '30m' }, { DIALTONE_TARGET_RETAIN: '500' }) // { retention: { maxCount: 500, maxAgeMs: 1_800_000 } }
 */
export function retentionOf(
  flags: { count?: string | undefined; age?: string | undefined } = {},
  env: NodeJS.ProcessEnv = process.env,
): { retention: Retention } | { error: string } {
  const count = pick(flags.count, env, RETAIN_ENV, '--retain');
  const age = pick(flags.age, env, RETAIN_AGE_ENV, '--retain-age');
  const maxCount = count ? parseRetainCount(count.text, count.label) : { value: DEFAULT_RETENTION.maxCount };
  if ('error' in maxCount) return maxCount;
  const maxAgeMs = age ? parseRetainAge(age.text, age.label) : { value: DEFAULT_RETENTION.maxAgeMs };
  if ('error' in maxAgeMs) return maxAgeMs;
  return { retention: { maxCount: maxCount.value, maxAgeMs: maxAgeMs.value } };
}

/**
 * Milliseconds in the largest whole unit of h, m, s and ms, as `--retain-age` reads them.
 *
 * @example
 * formatAge(3_600_000) // '1h'
 * formatAge(90_000) // '90s'
 */
export function formatAge(ms: number): string {
  const unit = ['h', 'm', 's'].find((u) => ms % (UNIT_MS[u] as number) === 0) ?? 'ms';
  return `${ms / (UNIT_MS[unit] as number)}${unit}`;
}

/**
 * A retention in words, for the line `dialtone target` prints at start.
 *
 * @example
 * describeRetention({ maxCount: 500, maxAgeMs: 1_800_000 }) // '500 finished items per store, each for at most 30m'
 */
export function describeRetention(r: Retention): string {
  return `${r.maxCount} finished items per store, each for at most ${formatAge(r.maxAgeMs)}`;
}

/**
 * The finished items of one store in the order they finished, and which of them a retention lets go. The store keeps
 * the items; this keeps only their keys and finish times, so live items never enter it and are never let go.
 *
 * @example
 * const order = new FinishedOrder<string>({ maxCount: 1, maxAgeMs: 60_000 });
 * order.finish('a', 0); order.finish('b', 10);
 * order.expire(20); // ['a']: one finished item is kept, the oldest goes
 */
export class FinishedOrder<K> {
  readonly #at = new Map<K, number>();
  constructor(private readonly retention: Retention) {}

  /** Marks `key` finished at `at`; finishing it again keeps the first time (closing twice is one end). */
  finish(key: K, at: number): void {
    if (!this.#at.has(key)) this.#at.set(key, at);
  }

  /** Keys beyond the count or older than the age at `now`, oldest finished first; they are forgotten here. */
  expire(now: number): K[] {
    const out: K[] = [];
    // Insertion order is finish order, so the first kept key ends the walk: usually O(1).
    for (const [key, at] of this.#at) {
      if (this.#at.size - out.length <= this.retention.maxCount && now - at < this.retention.maxAgeMs) break;
      out.push(key);
    }
    for (const key of out) this.#at.delete(key);
    return out;
  }

  get size(): number {
    return this.#at.size;
  }
}

/**
 * An append-only log of things that are finished when they arrive (a bridge-ended notification, an external event),
 * bounded by a retention: the oldest go first.
 *
 * @example
 * const log = new RetainedLog<string>({ maxCount: 2, maxAgeMs: 60_000 }, clock);
 * log.push('a'); log.push('b'); log.push('c');
 * log.values(); // ['b', 'c']
 */
export class RetainedLog<T> {
  readonly #entries: { readonly at: number; readonly item: T }[] = [];
  constructor(
    private readonly retention: Retention,
    private readonly clock: Clock,
  ) {}

  push(item: T): void {
    const now = this.clock.now();
    this.#entries.push({ at: now, item });
    this.#trim(now);
  }

  /** The kept items, oldest first. */
  values(): T[] {
    this.#trim(this.clock.now());
    return this.#entries.map((e) => e.item);
  }

  #trim(now: number): void {
    const { maxCount, maxAgeMs } = this.retention;
    let drop = 0;
    while (drop < this.#entries.length && (this.#entries.length - drop > maxCount || now - (this.#entries[drop]?.at ?? now) >= maxAgeMs)) drop++;
    if (drop > 0) this.#entries.splice(0, drop);
  }
}
