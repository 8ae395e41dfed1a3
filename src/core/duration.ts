// Go duration strings, as k6 options take them ("10s", "1m30s", "500ms"): k6 is written in Go and reads its
// durations with Go's time.ParseDuration rules.

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
 * A duration the way k6 prints it in its header: `15s`, `1m0s`, `1m30s`, `500ms`.
 *
 * @example
 * formatDuration(90_000); // '1m30s'
 */
export function formatDuration(ms: number): string {
  if (ms < 1000 && ms > 0) return `${Math.round(ms)}ms`;
  const total = Math.round(ms / 100) / 10;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total - h * 3600) / 60);
  const s = Math.round((total - h * 3600 - m * 60) * 10) / 10;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
