import { writeFileSync } from 'node:fs';
import type { EngineId } from '../src/core/engine-version.js';
import type { LoadResult } from '../src/load/page.js';
import type { NightMetric } from '../src/nightly/metrics.js';
import { seeded } from '../src/nightly/noise.js';

/** How a synthetic history's latency moves besides its noise. */
export interface SyntheticHistory {
  readonly seed: number;
  readonly nights: number;
  /** Night-to-night spread of the latency, log-normal: 0.05 is 5 % (throughput gets two fifths of it). */
  readonly noise?: number;
  /** The latency grows by `perNight` (0.01: 1 %) a night from night `from` (0-based) up to night `to` (exclusive; default the end), then stays. */
  readonly creep?: { readonly from: number; readonly perNight: number; readonly to?: number };
  /** From night `at` on the latency is `by` times what it was (1.3: +30 %). */
  readonly step?: { readonly at: number; readonly by: number };
  /** Night index → the tag that night's run was pinned with (`--baseline-tag`). */
  readonly tags?: Readonly<Record<number, string>>;
  readonly engine?: EngineId;
  readonly workload?: string;
}

/** The latency the creep and the step make of `base` on night i, before noise. */
const shaped = (o: SyntheticHistory, i: number, base: number) => {
  const creepNights = o.creep ? Math.max(0, Math.min(i + 1, o.creep.to ?? Number.POSITIVE_INFINITY) - o.creep.from) : 0;
  const grown = o.creep ? base * (1 + o.creep.perNight) ** creepNights : base;
  return o.step && i >= o.step.at ? grown * o.step.by : grown;
};

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/**
 * The metrics of each night of a seeded synthetic history: `http_req_duration p95` near 100 ms (with the creep and the
 * step), `iterations per_s` near 50/s, and `http_req_failed rate` of a few failures in 2,000 requests. The same seed
 * gives the same nights.
 *
 * @example
 * syntheticNights({ seed: 1, nights: 80, creep: { from: 20, perNight: 0.01 } })[79]['http_req_duration p95'].value; // ≈ 180
 */
export function syntheticNights(o: SyntheticHistory): Record<string, NightMetric>[] {
  const r = seeded(o.seed);
  const noise = o.noise ?? 0.05;
  return Array.from({ length: o.nights }, (_, i) => {
    const failures = Math.round(Math.max(0, 2 + 1.4 * gauss(r)));
    return {
      'http_req_duration p95': { value: shaped(o, i, 100) * Math.exp(noise * gauss(r)), unit: 'ms', better: 'lower' },
      'iterations per_s': { value: 50 * Math.exp(0.4 * noise * gauss(r)), unit: 'per_s', better: 'higher' },
      'http_req_failed rate': { value: failures / 2000, unit: 'ratio', better: 'lower' },
    };
  });
}

/** Night 0 of every synthetic history: night 20 is 2026-11-02. */
export const FIRST_NIGHT = Date.UTC(2026, 9, 13, 2, 17);

/**
 * A seeded synthetic history as `dialtone load` records it: one chat-turns run a night at 02:17 UTC from 2026-10-13,
 * with the metrics of syntheticNights.
 *
 * @example
 * writeHistory('/tmp/history.jsonl', syntheticHistory({ seed: 1, nights: 61, creep: { from: 20, perNight: 0.02 } }));
 */
export function syntheticHistory(o: SyntheticHistory): LoadResult[] {
  return syntheticNights(o).map((metrics, i) => ({
    tool_version: '0.1.0',
    scenario: 'chat-turns',
    profile: 'nightly',
    workload: o.workload ?? 'nightly',
    target: 'staging-us',
    engine: o.engine ?? { kind: 'builtin', version: 'v0.1.0' },
    started_at: new Date(FIRST_NIGHT + i * 86_400_000).toISOString(),
    duration_ms: 300_000,
    k6_exit_code: 0,
    passed: true,
    figures: {},
    headline: [],
    thresholds: [],
    metrics,
    ...(o.tags?.[i] ? { baseline_tag: o.tags[i] } : {}),
  }));
}

/** Writes runs as a history.jsonl file, one JSON line each. */
export function writeHistory(path: string, runs: readonly object[]): void {
  writeFileSync(path, `${runs.map((r) => JSON.stringify(r)).join('\n')}\n`);
}
