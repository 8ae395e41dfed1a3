// Go duration strings, as k6 options take them ("10s", "1m30s", "500ms"): k6 is written in Go and reads its
// durations with Go's time.ParseDuration rules and prints them with time.Duration's String. dialtone reads and writes
// every duration here, so what one part prints another reads back.

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Milliseconds in a Go duration string: an optional sign, then one or more number+unit parts (ns, us/µs, ms, s, m, h);
 * "0" alone is zero. A number is taken as milliseconds, as k6 takes a number where it wants a duration.
 * Throws a one-line error for anything else.
 *
 * @example
 * parseDuration('1m30s'); // 90000
 * parseDuration('500ms'); // 500
 */
export function parseDuration(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new Error(`invalid duration ${input}`);
    return input;
  }
  const s = input.trim();
  if (s === '0' || s === '+0' || s === '-0') return 0;
  let i = 0;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    i = 1;
  }
  if (i >= s.length) throw new Error(`invalid duration "${input}"`);
  let total = 0;
  while (i < s.length) {
    PART.lastIndex = i;
    const m = PART.exec(s);
    if (!m) throw new Error(`invalid duration "${input}"`);
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    i = PART.lastIndex;
  }
  return sign * total;
}

/**
 * A k6 duration that must be valid, or an Error naming the option.
 *
 * @example
 * requireDuration('15s', 'scenarios.chat.duration'); // 15000
 */
export function requireDuration(v: unknown, where: string, fallback?: number): number {
  if (v === undefined && fallback !== undefined) return fallback;
  const ms = durationMs(v);
  if (ms === undefined || ms < 0) throw new Error(`${where}: '${String(v)}' is not a duration (e.g. "30s", "1m30s", "500ms")`);
  return ms;
}

/** Milliseconds of a duration, or undefined for anything that is not one. */
export function durationMs(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return parseDuration(v);
  } catch {
    return undefined;
  }
}

/**
 * Seconds of a duration, as k6 prints one in its header (`15s`, `5m0s`, `1m30.5s`, `500ms`), or undefined for anything
 * that is not one.
 *
 * @example
 * durationSeconds('1m30.5s'); // 90.5
 */
export function durationSeconds(v: unknown): number | undefined {
  const ms = durationMs(v);
  return ms === undefined ? undefined : ms / 1000;
}

/** How {@link formatDuration} writes: a fixed unit (k6's --summary-time-unit), and decimals kept (Go prints them all). */
export interface DurationFormat {
  readonly unit?: 's' | 'ms' | 'us' | undefined;
  readonly digits?: number;
}

/**
 * ms as Go prints a duration (`148.21ms`, `12.25µs`, `1.5s`, `1m30s`, `1h2m3s`), two decimals unless told, or in a
 * fixed unit. k6 prints its header, its end-of-test summary and its options this way, and {@link parseDuration} reads
 * every string it writes back.
 *
 * @example
 * formatDuration(90_000); // '1m30s'
 * formatDuration(148.2149); // '148.21ms'
 * formatDuration(1500, { unit: 'ms' }); // '1500ms'
 */
export function formatDuration(ms: number, format: DurationFormat = {}): string {
  const digits = format.digits ?? 2;
  const r = (x: number) => String(Number(x.toFixed(digits)));
  const fixed = FIXED_UNIT[format.unit ?? ''];
  if (fixed) return `${r(ms / fixed.ms)}${fixed.suffix}`;
  const a = Math.abs(ms);
  if (a === 0) return '0s';
  if (a < 0.001) return `${r(ms * 1e6)}ns`;
  if (a < 1) return `${r(ms * 1000)}µs`;
  if (a < 1000) return `${r(ms)}ms`;
  if (a < 60_000) return `${r(ms / 1000)}s`;
  const sign = ms < 0 ? '-' : '';
  const h = Math.floor(a / 3_600_000);
  const m = Math.floor((a % 3_600_000) / 60_000);
  const s = (a % 60_000) / 1000;
  return `${sign}${h > 0 ? `${h}h` : ''}${m}m${r(s)}s`;
}

const FIXED_UNIT: Readonly<Record<string, { ms: number; suffix: string }>> = {
  s: { ms: 1000, suffix: 's' },
  ms: { ms: 1, suffix: 'ms' },
  us: { ms: 0.001, suffix: 'µs' },
};
