// k6 option durations: Go duration strings ("15s", "1m30s", "500ms", "1h"), or numbers of milliseconds.

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000_001 };
const PART = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/g;

/**
 * Milliseconds of a k6 duration; undefined for text that is not one. A bare number is milliseconds, as k6 reads
 * numeric durations in options.
 *
 * @example
 * durationMs('1m30s'); // 90000
 * durationMs(250); // 250
 */
export function durationMs(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const text = v.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text) * 1000;
  const parts = [...text.matchAll(PART)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] as string] ?? 0), 0);
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
  if (ms === undefined) throw new Error(`${where}: '${String(v)}' is not a duration (e.g. "30s", "1m30s", "500ms")`);
  return ms;
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
