// What a capacity search found: the highest rate that held every SLO, the knee, a USL fit, and who
// limited the run. When the load generator saturated first, no target capacity is given.
import { generatorSaturation, held, type SearchOptions } from './search.js';
import type { StepResult } from './step.js';
import { answeredOf, type ClosedWork, closedWorkOf } from './units.js';
import { fitUsl, type UslFit } from './usl.js';

/** The latency SLO the plots draw: the first trend threshold of the form p(NN)<X. */
export interface LatencySlo {
  readonly metric: string;
  readonly percentile: string;
  readonly limit_ms: number;
}

export interface CapacityAnalysis {
  /** 'target': an SLO broke first; 'load-generator': the engine (k6 or the built-in one) saturated first; 'none': nothing broke within the search. */
  readonly limited_by: 'target' | 'load-generator' | 'none';
  readonly limit_reason: string;
  /** The highest offered rate at which every threshold held; null when the generator was the limit. */
  readonly max_sustainable_rate: number | null;
  /** The lowest offered rate that broke (an SLO or the generator), if any. */
  readonly first_broken_rate: number | null;
  readonly knee: { readonly rate: number; readonly reason: string } | null;
  readonly usl: UslFit | null;
  readonly latency_slo: LatencySlo | null;
  /** Where the boundary lies, from every step at the rates around it (src/capacity/analysis.ts boundaryInterval). */
  readonly interval?: BoundaryInterval | null;
}

/** The boundary between held and broke: its ends, the observations behind them, and whether it is too wide to plan on. */
export interface BoundaryInterval {
  /** The highest rate at which every step held (max_sustainable_rate). */
  readonly low: number;
  /** The lowest rate above it at which every step broke. */
  readonly high: number;
  /** Steps at each end: 1 is the search's bracket alone, more are repeats (--repeats). */
  readonly observations: { readonly low: number; readonly high: number };
  /** Rates between the ends where steps disagreed (held once, broke once): the noise at the boundary. */
  readonly mixed: readonly number[];
  /** (high − low) / low above WIDE_INTERVAL: plan on low, or search again with more repeats. */
  readonly wide: boolean;
}

/** An interval wider than this share of its low end is too wide to plan on. */
export const WIDE_INTERVAL = 0.25;

/**
 * The boundary from every step: steps grouped by rate; `low` the highest rate below the first one where any step broke,
 * so every step at and below it held, `high` the first rate whose steps all broke. Rates whose steps disagree lie between.
 *
 * @example
 * boundaryInterval(steps, held)?.low; // 4.5
 */
export function boundaryInterval(steps: readonly StepResult[], holds: (s: StepResult) => boolean): BoundaryInterval | null {
  const byRate = new Map<number, boolean[]>();
  for (const s of steps) byRate.set(s.offered_rate, [...(byRate.get(s.offered_rate) ?? []), holds(s)]);
  const rates = [...byRate.keys()].sort((a, b) => a - b);
  const allBroke = (r: number) => (byRate.get(r) ?? []).every((h) => !h);
  const allHeld = (r: number) => (byRate.get(r) ?? []).every((h) => h);
  const high = rates.find(allBroke);
  if (high === undefined) return null;
  // Below the first rate where any step broke, not merely below `high`: a rate stepped once that held above a rate
  // whose repeats disagreed is no floor to plan on.
  const firstBreak = rates.find((r) => !allHeld(r)) ?? high;
  const low = rates.filter((r) => r < firstBreak).at(-1);
  if (low === undefined) return null;
  const count = (r: number) => byRate.get(r)?.length ?? 0;
  return {
    low,
    high,
    observations: { low: count(low), high: count(high) },
    mixed: rates.filter((r) => r > low && r < high && !allHeld(r) && !allBroke(r)),
    wide: (high - low) / low > WIDE_INTERVAL,
  };
}

const THROUGHPUT_FOLLOWS = 0.9;

/**
 * The latency SLO the plots draw: of the trend thresholds of the form p(NN)<X, the one closest to its
 * limit on the heaviest step (the one that binds first).
 */
export function latencySlo(steps: readonly StepResult[]): LatencySlo | null {
  const heaviest = [...steps].sort((a, b) => b.offered_rate - a.offered_rate)[0];
  let best: { slo: LatencySlo; ratio: number } | undefined;
  for (const t of heaviest?.thresholds ?? []) {
    const m = /^p\((\d+(?:\.\d+)?)\)\s*<\s*(\d+(?:\.\d+)?)$/.exec(t.expression);
    if (!m) continue;
    const slo = { metric: t.metric, percentile: `p${m[1]}`, limit_ms: Number(m[2]) };
    const ratio = (t.value ?? 0) / slo.limit_ms;
    if (!best || ratio > best.ratio) best = { slo, ratio };
  }
  return best?.slo ?? null;
}

const p95Of = (s: StepResult, slo: LatencySlo | null) => (slo ? s.latency[slo.metric]?.p95 : undefined);

/**
 * The knee: the first step (by offered rate) where throughput falls below 90 % of the offered rate,
 * or where the SLO metric's p95 has grown faster than the offered rate since the lightest step
 * (superlinear). Null when every step followed linearly. A closed model's steps are read in `work`'s words.
 *
 * @example
 * findKnee(steps, latencySlo(steps), closedWorkOf('voice-calls'))?.reason; // '1.9 of the 3.0 turns/s taken were answered, below 90%'
 */
export function findKnee(steps: readonly StepResult[], slo: LatencySlo | null, work: ClosedWork): CapacityAnalysis['knee'] {
  const sorted = [...steps].sort((a, b) => a.offered_rate - b.offered_rate);
  const base = sorted[0];
  const baseP95 = base ? p95Of(base, slo) : undefined;
  for (const s of sorted.slice(1)) {
    if (s.throughput < THROUGHPUT_FOLLOWS * s.offered_rate) {
      return {
        rate: s.offered_rate,
        reason: s.messages
          ? `${answeredOf(work, s.messages)} were answered, below ${THROUGHPUT_FOLLOWS * 100}%`
          : `throughput ${s.throughput.toFixed(2)}/s fell below ${THROUGHPUT_FOLLOWS * 100}% of the offered ${s.offered_rate.toFixed(2)}/s`,
      };
    }
    const p95 = p95Of(s, slo);
    if (base && baseP95 && p95 && p95 / baseP95 > s.offered_rate / base.offered_rate) {
      const grew = s.messages ? `${work.held} held` : 'offered rate';
      return {
        rate: s.offered_rate,
        reason: `p95 grew ${(p95 / baseP95).toFixed(1)}× while the ${grew} grew ${(s.offered_rate / base.offered_rate).toFixed(1)}×`,
      };
    }
  }
  return null;
}

/**
 * Analyses a search's steps; a closed model's reasons name what `scenario` holds and the work each held one does.
 *
 * @example
 * const a = analyse(outcome.steps, DEFAULT_SEARCH, 'chat-turns');
 * a.limited_by === 'target' ? a.max_sustainable_rate : null;
 */
export function analyse(
  steps: readonly StepResult[],
  options: Pick<SearchOptions, 'cpuLimitCores' | 'droppedLimit' | 'keepUpShare' | 'machineBusyLimit' | 'closed'>,
  scenario: string,
): CapacityAnalysis {
  const work = closedWorkOf(scenario);
  // Where a step stood: an arrival rate, or (the closed model) how many it held.
  const at = (s: StepResult) => (options.closed ? `with ${s.offered_rate} held` : `at ${s.offered_rate.toFixed(2)}/s`);
  const sorted = [...steps].sort((a, b) => a.offered_rate - b.offered_rate);
  const saturation = (s: StepResult) => generatorSaturation(s, options);
  const firstBroken = sorted.find((s) => !held(s, options) || saturation(s) !== undefined);
  const slo = latencySlo(steps);
  const usl =
    fitUsl(steps.filter((s) => s.concurrency !== undefined && saturation(s) === undefined).map((s) => ({ n: s.concurrency as number, x: s.throughput }))) ??
    null;
  const knee = findKnee(
    steps.filter((s) => saturation(s) === undefined),
    slo,
    work,
  );
  const heldBelow = (limit: number) =>
    sorted.filter((s) => s.offered_rate < limit && held(s, options) && saturation(s) === undefined).at(-1)?.offered_rate ?? null;
  if (!firstBroken) {
    return {
      limited_by: 'none',
      limit_reason: 'every step held its SLOs; the search stopped before anything broke, so the capacity is at least the highest rate offered',
      max_sustainable_rate: sorted.at(-1)?.offered_rate ?? null,
      first_broken_rate: null,
      knee,
      usl,
      latency_slo: slo,
    };
  }
  const why = saturation(firstBroken);
  const cpuBound = why?.startsWith('the engine used') ?? false;
  // The generator is the limit when it saturated on a step whose SLOs still held, or its CPU ran out
  // (then its latency figures are its own). VUs exhausted while an SLO broke are the target's doing.
  if (why && (firstBroken.slo_held || cpuBound)) {
    return {
      limited_by: 'load-generator',
      limit_reason: `${at(firstBroken)} ${why} before the target broke an SLO; no target capacity is reported`,
      max_sustainable_rate: null,
      first_broken_rate: firstBroken.offered_rate,
      knee,
      usl,
      latency_slo: slo,
    };
  }
  const failed = firstBroken.thresholds.filter((t) => !t.passed).map((t) => `${t.metric} ${t.expression} (${t.value?.toFixed(2) ?? 'n/a'})`);
  if (firstBroken.slo_held) {
    const { messages } = firstBroken;
    failed.push(
      messages
        ? `no SLO but answered only ${answeredOf(work, messages)} (a queue was growing)`
        : `no SLO but completed only ${firstBroken.throughput.toFixed(2)}/s of the offered ${firstBroken.offered_rate.toFixed(2)}/s (a queue was growing)`,
    );
  }
  return {
    limited_by: 'target',
    limit_reason: `${at(firstBroken)} the target broke ${failed.join('; ') || 'its SLOs'}`,
    max_sustainable_rate: heldBelow(firstBroken.offered_rate),
    first_broken_rate: firstBroken.offered_rate,
    knee,
    usl,
    latency_slo: slo,
    interval: boundaryInterval(steps, (s) => held(s, options) && saturation(s) === undefined),
  };
}
