// Whether a load run delivered the load it asked for. A passing SLO verdict on load that never left the generator is a
// false green, so a run that fell short fails its gate with its own exit code, and its headline says so in numbers.

import { type K6Summary, stat } from '../core/summary.js';
import { EXIT } from '../errors.js';
import type { GeneratorReport } from './generator-watch.js';

/** The load command's exit code when every threshold held but the load asked for was not delivered. */
export const EXIT_LOAD_NOT_DELIVERED = EXIT.loadNotDelivered;
/** Dropped iterations tolerated, as a share of those k6 scheduled (iterations started + dropped): one in a thousand. */
export const DROPPED_TOLERANCE = 0.001;
/** The generator counts as saturated in a second when it used this share of the machine's cores … */
export const CPU_SATURATED = 0.9;
/** … and the run as limited by it when more than this share of its seconds were saturated ones. */
export const CPU_SATURATED_SECONDS = 0.25;

/** Why a run fell short, by key; the headline spells each out in numbers. */
export type ShortBy = 'nothing_completed' | 'dropped_iterations' | 'vus_exhausted' | 'generator_cpu' | 'behind_schedule';

/** A run's delivery: what it asked, what it sent, and what held it back. Written to result.json as `delivery`. */
export interface Delivery {
  readonly delivered: boolean;
  readonly short_by: ShortBy[];
  /** Iterations per second asked (the peak of a ramp); null for a VU-based scenario. */
  readonly asked_rate: number | null;
  readonly executor: 'constant-arrival-rate' | 'ramping-arrival-rate' | 'vus' | 'unknown';
  readonly delivered_rate: number;
  readonly iterations: number;
  readonly dropped: number;
  /** dropped / (iterations + dropped). */
  readonly dropped_share: number;
  readonly requests_per_s: number;
  readonly peak_vus: number;
  readonly max_vus: number | null;
  readonly vus_exhausted: boolean;
  readonly generator_cpu_avg_cores: number;
  readonly generator_cpu_peak_cores: number;
  /** CPU seconds the generator used while it was sampled. */
  readonly generator_cpu_seconds: number;
  readonly generator_saturated_seconds: number;
  readonly cores: number;
  /** Share of the machine's CPU that was busy (every process, the target included), on average over the run. */
  readonly machine_busy: number;
  /**
   * How late the arrival-rate iterations started against their schedule at p99, ms: the built-in engine's
   * iteration_start_lag (src/engine/start-lag.ts); null when the run has none (k6, a VU-based scenario).
   */
  readonly start_lag_p99_ms: number | null;
  /** --max-start-lag: the p99 start lag above which the generator is behind schedule; null when none was set. */
  readonly max_start_lag_ms: number | null;
}

const EXECUTOR = { constant: 'constant-arrival-rate', ramping: 'ramping-arrival-rate', vus: 'vus' } as const;
const avg = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * Judges a run's delivery from k6's summary and what was seen of the generator while it ran; with `maxStartLagMs`, a
 * run whose iterations started later than that at p99 is behind schedule.
 *
 * @example
 * const d = judgeDelivery(summary, watch.stop());
 * if (!d.delivered) console.log(deliveryHeadline(d)[0]);
 */
export function judgeDelivery(s: K6Summary, g: GeneratorReport, maxStartLagMs?: number, interrupted = false): Delivery {
  const iterations = stat(s, 'iterations', 'count') ?? 0;
  const dropped = stat(s, 'dropped_iterations', 'count') ?? 0;
  const scheduled = iterations + dropped;
  const arrival = g.asked !== undefined && g.asked.kind !== 'vus';
  const peakVUs = stat(s, 'vus', 'max') ?? 0;
  const maxVUs = g.asked?.maxVUs ?? null;
  // Arrival-rate executors only: a looping-VU scenario always runs all its VUs.
  const exhausted = arrival && (g.insufficientVUs !== undefined || (maxVUs !== null && peakVUs >= maxVUs));
  const saturated = g.cpuCores.filter((c) => c >= CPU_SATURATED * g.cores).length;
  // A run cut short ran for less than its planned length: its rate is the engine's, over the time that ran.
  const seconds = g.asked?.kind === 'constant' && !interrupted ? g.asked.seconds : undefined;
  const shortBy: ShortBy[] = [];
  if (iterations === 0) shortBy.push('nothing_completed');
  if (dropped > scheduled * DROPPED_TOLERANCE) shortBy.push('dropped_iterations');
  if (exhausted) shortBy.push('vus_exhausted');
  if (saturated > 0 && saturated > g.cpuCores.length * CPU_SATURATED_SECONDS) shortBy.push('generator_cpu');
  const lag = stat(s, 'iteration_start_lag', 'p(99)') ?? null;
  if (maxStartLagMs !== undefined && lag !== null && lag > maxStartLagMs) shortBy.push('behind_schedule');
  return {
    delivered: shortBy.length === 0,
    short_by: shortBy,
    asked_rate: g.asked?.rate ?? null,
    executor: g.asked ? EXECUTOR[g.asked.kind] : 'unknown',
    // A constant rate's iterations over its own length; otherwise (an interrupted run too) k6's rate over the time that ran.
    delivered_rate: seconds ? iterations / seconds : (stat(s, 'iterations', 'rate') ?? 0),
    iterations,
    dropped,
    dropped_share: scheduled ? dropped / scheduled : 0,
    requests_per_s: stat(s, 'http_reqs', 'rate') ?? 0,
    peak_vus: peakVUs,
    max_vus: maxVUs,
    vus_exhausted: exhausted,
    generator_cpu_avg_cores: avg(g.cpuCores),
    generator_cpu_peak_cores: Math.max(0, ...g.cpuCores),
    generator_cpu_seconds: g.cpuCores.reduce((a, b) => a + b, 0),
    generator_saturated_seconds: saturated,
    cores: g.cores,
    machine_busy: avg(g.machineBusy),
    start_lag_p99_ms: lag,
    max_start_lag_ms: maxStartLagMs ?? null,
  };
}

const n = (v: number, digits = 1) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (v: number) => `${n(v * 100)} %`;

/** Why, in numbers, per cause. */
const WHY: Record<ShortBy, (d: Delivery) => string> = {
  nothing_completed: () => 'no iteration completed',
  dropped_iterations: (d) =>
    `${n(d.dropped, 0)} iterations dropped (${pct(d.dropped_share)} of ${n(d.iterations + d.dropped, 0)}; tolerance ${pct(DROPPED_TOLERANCE)})`,
  vus_exhausted: (d) => `VUs exhausted (peak ${d.peak_vus} of maxVUs ${d.max_vus ?? 'n/a'}; raise --max-vus or spread the load)`,
  generator_cpu: (d) =>
    `the generator's CPU was saturated in ${d.generator_saturated_seconds} s (at least ${pct(CPU_SATURATED)} of ${d.cores} cores; spread the load over ` +
    `more machines)`,
  behind_schedule: (d) =>
    `generator behind schedule: iterations started ${n(d.start_lag_p99_ms ?? 0)} ms late at p99 (bound ${n(d.max_start_lag_ms ?? 0)} ms; spread the ` +
    `load over more machines or cores)`,
};

/**
 * The headline lines of a run's delivery: what was asked and sent, and, when it fell short, why.
 *
 * @example
 * deliveryHeadline(d); // ['load delivered: asked 5.0 iterations/s, delivered 5.0/s …']
 */
export function deliveryHeadline(d: Delivery): string[] {
  const asked = d.asked_rate === null ? 'a VU-based load' : `${d.executor === 'ramping-arrival-rate' ? 'up to ' : ''}${n(d.asked_rate)} iterations/s`;
  const sent =
    `asked ${asked}, delivered ${n(d.delivered_rate)}/s (${n(d.iterations, 0)} iterations, ${n(d.requests_per_s)} requests/s), ` +
    `${n(d.dropped, 0)} dropped (${pct(d.dropped_share)})`;
  const lag = d.start_lag_p99_ms === null ? '' : `; iterations started ${n(d.start_lag_p99_ms)} ms late at p99`;
  const generator =
    `peak ${d.peak_vus} of ${d.max_vus ?? 'n/a'} VUs; generator CPU ${n(d.generator_cpu_avg_cores, 2)} cores on average, peak ` +
    `${n(d.generator_cpu_peak_cores, 2)} of ${d.cores}; machine ${pct(d.machine_busy)} busy${lag}`;
  if (d.delivered) return [`load delivered: ${sent}; ${generator}`];
  return [`LOAD NOT DELIVERED: ${d.short_by.map((k) => WHY[k](d)).join('; ')}`, `${sent}; ${generator}`];
}

/**
 * The run's exit code: k6's own when it is not 0 (a failed threshold, 99, is a finding about the target even at the load
 * that was sent), EXIT_LOAD_NOT_DELIVERED when every threshold held on load that was not delivered, else 0.
 *
 * @example
 * exitWithDelivery(0, d); // 5 when d.delivered is false
 */
export function exitWithDelivery(k6Exit: number, d: Delivery): number {
  return k6Exit === 0 && !d.delivered ? EXIT_LOAD_NOT_DELIVERED : k6Exit;
}

/** The load command's verdict line per exit code. */
const VERDICTS: Record<number, string> = {
  0: 'thresholds held on the load asked for',
  [EXIT_LOAD_NOT_DELIVERED]: `thresholds held, but the load asked for was not delivered (exit ${EXIT_LOAD_NOT_DELIVERED})`,
  99: 'threshold failed (exit 99)',
  [EXIT.interrupted]: `interrupted: stopped by a signal before its end; what ran is reported (exit ${EXIT.interrupted})`,
};

/**
 * The verdict of a run by its exit code, for the command's first line.
 *
 * @example
 * loadVerdict(5); // 'thresholds held, but the load asked for was not delivered (exit 5)'
 */
export const loadVerdict = (exitCode: number) => VERDICTS[exitCode] ?? `the engine failed (exit ${exitCode})`;
