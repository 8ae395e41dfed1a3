// Latency distributions of the reference target (`dialtone target --latency`): their text form, their draws from a
// seeded generator and their means (which the capacity queue needs to choose its number of workers).
import { durationMs, formatDuration as goDuration } from '../core/duration.js';

/** z of the normal distribution's 95th percentile: p95 = p50 × exp(1.6449 σ) for a lognormal. */
const Z95 = 1.6448536269514722;

export type Distribution =
  | { readonly kind: 'fixed'; readonly ms: number }
  /** Its median and 95th percentile; mu = ln(p50), sigma = (ln p95 − ln p50) / 1.6449. */
  | { readonly kind: 'lognormal'; readonly p50: number; readonly p95: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number };

/** A uniform [0, 1) source: SeededRandom (src/reference-target/ids.ts) in the target. */
export interface Uniform {
  next(): number;
}

/** Milliseconds of a duration as k6 writes one (a Go duration: `1500ms`, `1.5s`, `1m30s`); undefined for a negative one. */
function readDuration(text: string): number | undefined {
  const ms = durationMs(text);
  return ms !== undefined && ms >= 0 ? ms : undefined;
}

/** Milliseconds as k6 prints them (`80ms`, `1.5s`, `1m30s`), three decimals kept so a distribution reads back the same. */
const formatDuration = (ms: number) => goDuration(ms, { digits: 3 });

type Parsed = { readonly distribution: Distribution } | { readonly error: string };

/** `k=DURATION` pairs, comma-separated, with exactly the keys asked for. */
function pairs(name: string, params: string, keys: readonly [string, string]): { values: Record<string, number> } | { error: string } {
  const shape = `${name} needs ${keys.map((k) => `${k}=DURATION`).join(',')}, got '${params}'`;
  const out: Record<string, number> = {};
  for (const part of params.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (eq < 0 || !keys.includes(key) || key in out) return { error: shape };
    const ms = readDuration(part.slice(eq + 1));
    if (ms === undefined) return { error: `'${part.slice(eq + 1).trim()}' is not a duration (e.g. 1500ms or 1.5s)` };
    out[key] = ms;
  }
  return keys.every((k) => k in out) ? { values: out } : { error: shape };
}

/** One parser per distribution name: the whole dispatch. */
const PARSERS: Record<string, (params: string) => Parsed> = {
  fixed: (params) => {
    const ms = readDuration(params);
    return ms === undefined ? { error: `fixed needs one duration (e.g. fixed:1.2s), got '${params}'` } : { distribution: { kind: 'fixed', ms } };
  },
  lognormal: (params) => {
    const p = pairs('lognormal', params, ['p50', 'p95']);
    if ('error' in p) return p;
    const { p50, p95 } = p.values as { p50: number; p95: number };
    if (!(p50 > 0)) return { error: 'lognormal needs p50 above 0' };
    if (!(p95 > p50)) return { error: `lognormal needs p95 (${formatDuration(p95)}) above p50 (${formatDuration(p50)}); for a constant use fixed:` };
    return { distribution: { kind: 'lognormal', p50, p95 } };
  },
  uniform: (params) => {
    const p = pairs('uniform', params, ['min', 'max']);
    if ('error' in p) return p;
    const { min, max } = p.values as { min: number; max: number };
    if (max < min) return { error: `uniform needs max (${formatDuration(max)}) not below min (${formatDuration(min)})` };
    return { distribution: { kind: 'uniform', min, max } };
  },
};

export const DISTRIBUTION_NAMES = Object.keys(PARSERS);

/**
 * Parses `fixed:1.2s`, `lognormal:p50=1.5s,p95=4.5s` or `uniform:min=50ms,max=150ms`; an error text (without the flag's
 * name, which the caller adds) when it is none of these.
 *
 * @example
 * parseDistribution('lognormal:p50=1.5s,p95=4.5s') // { distribution: { kind: 'lognormal', p50: 1500, p95: 4500 } }
 */
export function parseDistribution(text: string): Parsed {
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  const parse = Object.hasOwn(PARSERS, name) ? PARSERS[name] : undefined;
  if (!parse) return { error: `unknown distribution '${name}'; known: ${DISTRIBUTION_NAMES.map((n) => `${n}:`).join(', ')}` };
  if (colon < 0) return { error: `${name} needs its parameters after '${name}:'` };
  return parse(text.slice(colon + 1).trim());
}

/** The lognormal's mu and sigma (of the normal distribution of ln x, x in milliseconds). */
export function lognormalParams(d: { readonly p50: number; readonly p95: number }): { mu: number; sigma: number } {
  return { mu: Math.log(d.p50), sigma: (Math.log(d.p95) - Math.log(d.p50)) / Z95 };
}

/** A standard normal deviate from two uniforms (Box-Muller): every draw takes exactly two, so a stream stays replayable. */
function standardNormal(u: Uniform): number {
  const u1 = 1 - u.next(); // (0, 1]: the logarithm stays finite
  const u2 = u.next();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * One draw in milliseconds.
 *
 * @example
 * sample({ kind: 'lognormal', p50: 1500, p95: 4500 }, new SeededRandom(1)) // about 1500 half the time or less
 */
export function sample(d: Distribution, u: Uniform): number {
  switch (d.kind) {
    case 'fixed':
      return d.ms;
    case 'uniform':
      return d.min + u.next() * (d.max - d.min);
    case 'lognormal': {
      const { mu, sigma } = lognormalParams(d);
      return Math.exp(mu + sigma * standardNormal(u));
    }
  }
}

/**
 * The value `z` standard deviations up, in milliseconds: a lognormal's exp(mu + z·sigma); a fixed or uniform one's
 * largest value whatever `z`.
 *
 * @example
 * upperOf({ kind: 'lognormal', p50: 1500, p95: 4500 }, 3.719) // about 18 000: its 99.99th percentile
 */
export function upperOf(d: Distribution, z: number): number {
  switch (d.kind) {
    case 'fixed':
      return d.ms;
    case 'uniform':
      return d.max;
    case 'lognormal': {
      const { mu, sigma } = lognormalParams(d);
      return Math.exp(mu + z * sigma);
    }
  }
}

/**
 * The mean in milliseconds; a lognormal's is exp(mu + sigma²/2), above its median.
 *
 * @example
 * meanOf({ kind: 'lognormal', p50: 1500, p95: 4500 }) // about 1875
 */
export function meanOf(d: Distribution): number {
  switch (d.kind) {
    case 'fixed':
      return d.ms;
    case 'uniform':
      return (d.min + d.max) / 2;
    case 'lognormal': {
      const { mu, sigma } = lognormalParams(d);
      return Math.exp(mu + (sigma * sigma) / 2);
    }
  }
}

/**
 * The text form, as parseDistribution reads it.
 *
 * @example
 * formatDistribution({ kind: 'fixed', ms: 1200 }) // 'fixed:1.2s'
 */
export function formatDistribution(d: Distribution): string {
  switch (d.kind) {
    case 'fixed':
      return `fixed:${formatDuration(d.ms)}`;
    case 'uniform':
      return `uniform:min=${formatDuration(d.min)},max=${formatDuration(d.max)}`;
    case 'lognormal':
      return `lognormal:p50=${formatDuration(d.p50)},p95=${formatDuration(d.p95)}`;
  }
}
