// The stepped arrival-rate search: coarse steps that multiply the rate until one breaks, then
// bisection between the last step that held and the first that broke. Bounded in steps and time.
import { interruption } from '../load/interrupt.js';
import type { StepPlan, StepResult } from './step.js';

/** How the search walks; every field has a default (DEFAULT_SEARCH). */
export interface SearchOptions {
  /** First offered rate, iterations per second. */
  readonly startRate: number;
  /** Coarse steps multiply the rate by this. */
  readonly factor: number;
  /** Never offer more than this. */
  readonly maxRate: number;
  /** Refinement stops once (broken − held) / held is at most this. */
  readonly precision: number;
  readonly maxSteps: number;
  /** Wall-time budget: no step starts after it is spent. */
  readonly maxSeconds: number;
  readonly stepSeconds: number;
  /** Seconds at the start of each step whose samples are left out. */
  readonly warmupSeconds: number;
  /**
   * Seconds the engine lets running iterations finish after a step. An iteration cut short may record failures (a browser
   * closed mid-call), so scenarios with long iterations need about one iteration's length.
   */
  readonly gracefulStopSeconds: number;
  readonly maxVUs: number;
  /** Generator CPU, in cores, above which the generator counts as saturated. */
  readonly cpuLimitCores: number;
  /**
   * Share of the machine's CPU busy above which a generator using at least half a core counts as saturated too: on a
   * machine it shares with the target (the loopback reference), neither can be named the limit on its own.
   */
  readonly machineBusyLimit: number;
  /** Share of offered iterations dropped above which the generator counts as saturated. */
  readonly droppedLimit: number;
  /**
   * A step is sustained only when completions keep up with arrivals: throughput at least this share
   * of the offered rate. Below it a queue is growing, so the step's SLOs held only for lack of time.
   */
  readonly keepUpShare: number;
  /**
   * Once refined, each rate at the boundary (the highest that held, the lowest that broke) is stepped this many times
   * more, so the figure carries its spread: a rate that held once may not hold again. 0: the search's bracket alone.
   */
  readonly repeats: number;
  /**
   * The closed model (--model closed): each step holds `rate` whole sessions (one VU each) for its length, each socket
   * sending `messageRate` messages a second; absent, the open model (a constant arrival rate).
   */
  readonly closed?: { readonly messageRate: number } | undefined;
}

export const DEFAULT_SEARCH: SearchOptions = {
  startRate: 1,
  factor: 2,
  maxRate: 1000,
  precision: 0.1,
  maxSteps: 14,
  maxSeconds: 900,
  stepSeconds: 20,
  warmupSeconds: 5,
  gracefulStopSeconds: 2,
  maxVUs: 2000,
  cpuLimitCores: 0.9,
  machineBusyLimit: 0.95,
  droppedLimit: 0.01,
  keepUpShare: 0.95,
  repeats: 0,
};

/** The engine could not run a step (its exit code is neither 0 nor 99, threshold failed): the search cannot go on. */
export class StepFailed extends Error {
  override readonly name = 'StepFailed';
}

/**
 * Why the generator could not be trusted at a step, or undefined when it could. A learned step's load is delivered when
 * the conversations started in the steady part kept up with those asked (at least `keepUpShare`, one allowed): they
 * start on schedule, so a shortfall is the engine's (a conversation outlasts the window, so dropped iterations alone
 * are counted late).
 */
export function generatorSaturation(
  s: StepResult,
  search: Pick<SearchOptions, 'cpuLimitCores' | 'droppedLimit' | 'machineBusyLimit' | 'keepUpShare'>,
): string | undefined {
  if (s.generator_cpu_cores !== undefined && s.generator_cpu_cores >= search.cpuLimitCores) {
    return `the engine used ${s.generator_cpu_cores.toFixed(2)} cores (limit ${search.cpuLimitCores})`;
  }
  if (s.machine_busy !== undefined && s.machine_busy >= (search.machineBusyLimit ?? 1) && (s.generator_cpu_cores ?? 0) >= 0.5) {
    return `the engine used ${(s.generator_cpu_cores ?? 0).toFixed(2)} cores of a machine ${(s.machine_busy * 100).toFixed(0)}% busy (limit ${(search.machineBusyLimit * 100).toFixed(0)}%), which it shares with what it measures`;
  }
  if (s.vus_in_use >= s.vus_cap && s.dropped_iterations > 0)
    return `the engine ran out of VUs (all ${s.vus_cap} busy, ${s.dropped_iterations} iterations dropped)`;
  if (s.dropped_share > search.droppedLimit) return `the engine dropped ${(s.dropped_share * 100).toFixed(1)}% of the offered iterations`;
  const window = s.duration_s - s.warmup_s;
  if (s.conversations && s.conversations.started_per_s * window < search.keepUpShare * s.offered_rate * window - 1) {
    return `the engine started ${Math.round(s.conversations.started_per_s * window)} of the ${Math.round(s.offered_rate * window)} conversations asked in the steady part`;
  }
  return undefined;
}

/**
 * Whether completions kept up with the offered rate (see SearchOptions.keepUpShare), counted in iterations over the
 * steady window, with one iteration of slack (counts are whole numbers) and two standard deviations of the count's
 * edge noise. Iterations start on schedule but end when they end: with rate λ and iteration times spread by σ, the
 * completions that fall in or out of the window at its two edges vary by 2λσ/√π (σ/√π = ∫F(1−F) for a normal spread).
 * Iterations of milliseconds add nothing; a slow agent's ten-second conversations add a few, not a false knee.
 */
export function keptUp(s: StepResult, search: Pick<SearchOptions, 'keepUpShare'>): boolean {
  const window = s.duration_s - s.warmup_s;
  const edgeNoise = Math.sqrt((2 * s.offered_rate * (s.iteration_spread_s ?? 0)) / Math.sqrt(Math.PI));
  return s.throughput * window >= search.keepUpShare * s.offered_rate * window - 1 - 2 * edgeNoise;
}

/** A step held when every SLO held and the target kept up with the offered rate. */
export const held = (s: StepResult, search: Pick<SearchOptions, 'keepUpShare'>) => s.slo_held && keptUp(s, search);

/** A step breaks the search when it did not hold or the generator could not hold the rate. */
export const broke = (s: StepResult, search: SearchOptions) => !held(s, search) || generatorSaturation(s, search) !== undefined;

/** Runs one step of the search: the engine against the target (`runStep` with its context), or a simulated surface. */
export type StepRunner = (plan: StepPlan) => Promise<StepResult>;

/** Milliseconds of the wall clock the search reads its time budget from (Date.now, or a simulation's own clock). */
export type Clock = () => number;

export interface SearchOutcome {
  readonly steps: StepResult[];
  /** Why the search stopped: refined, max rate reached, step or time budget spent, nothing held, or a stop signal. */
  readonly stopped: 'refined' | 'max-rate' | 'step-budget' | 'time-budget' | 'nothing-held' | 'interrupted';
  readonly wall_s: number;
}

/**
 * Runs the search, each step by `runStep`. `onStep` sees each step as it ends (the command prints a line per step); the
 * time budget is read from `now`.
 *
 * @example
 * const { steps } = await searchCapacity((plan) => runStep(ctx, plan), { ...DEFAULT_SEARCH, startRate: 2 });
 */
export async function searchCapacity(
  runStep: StepRunner,
  searchOptions: SearchOptions,
  onStep: (s: StepResult) => void = () => {},
  now: Clock = Date.now,
): Promise<SearchOutcome> {
  const started = now();
  const steps: StepResult[] = [];
  try {
    return await search({ runStep, o: searchOptions, onStep, steps, started, now });
  } catch (e) {
    // A stop signal ends the search where it is: the steps that finished are kept, the one cut short is not.
    if (e instanceof SearchInterrupted) return { steps, stopped: 'interrupted', wall_s: (now() - started) / 1000 };
    throw e;
  }
}

/** Thrown inside the search when a stop signal came. */
class SearchInterrupted extends Error {}

/** What one search works with: its step runner and options, the steps so far, and its clock. */
interface SearchState {
  readonly runStep: StepRunner;
  readonly o: SearchOptions;
  readonly onStep: (s: StepResult) => void;
  readonly steps: StepResult[];
  readonly started: number;
  readonly now: Clock;
}

async function search({ runStep, o, onStep, steps, started, now }: SearchState): Promise<SearchOutcome> {
  // The smallest step between rates: whole sessions held, or one arrival a minute (k6's rates are integers per minute).
  const grain = o.closed ? 1 : 1 / 60;
  const same = (a: number, b: number) => Math.round(a / grain) === Math.round(b / grain);
  const lower = (rate: number) => (o.closed ? Math.min(Math.round(rate / (1 + o.precision)), rate - 1) : rate / (1 + o.precision));
  const budgetLeft = () => steps.length < o.maxSteps && (now() - started) / 1000 + o.stepSeconds + o.gracefulStopSeconds < o.maxSeconds;
  const run = async (rate: number, stage: StepResult['stage']) => {
    if (interruption()) throw new SearchInterrupted();
    const iterationS = Math.max(0, ...steps.map((x) => x.mean_iteration_s ?? 0)) || undefined;
    const s = await runStep({
      index: steps.length,
      stage,
      rate,
      durationS: o.stepSeconds,
      warmupS: o.warmupSeconds,
      maxVUs: o.maxVUs,
      gracefulStopS: o.gracefulStopSeconds,
      iterationS,
    });
    if (interruption()) throw new SearchInterrupted();
    if (s.k6_exit_code !== 0 && s.k6_exit_code !== 99) {
      throw new StepFailed(
        `the engine could not run step ${s.index} at ${rate.toFixed(2)}/s (exit ${s.k6_exit_code}); see its log in the report's .work folder`,
      );
    }
    steps.push(s);
    onStep(s);
    return s;
  };
  const finish = (stopped: SearchOutcome['stopped']): SearchOutcome => ({ steps, stopped, wall_s: (now() - started) / 1000 });
  const budgetStop = (): SearchOutcome['stopped'] => (steps.length >= o.maxSteps ? 'step-budget' : 'time-budget');

  // Coarse: multiply until a step breaks; if the first one breaks, divide until one holds.
  let held: number | undefined;
  let broken: number | undefined;
  let rate = Math.min(o.startRate, o.maxRate);
  while (budgetLeft()) {
    const s = await run(rate, 'coarse');
    if (broke(s, o)) {
      broken = s.offered_rate;
      if (held !== undefined) break;
      rate = s.offered_rate / o.factor;
      if (rate < grain) return finish('nothing-held');
    } else {
      held = s.offered_rate;
      if (broken !== undefined) break;
      if (rate >= o.maxRate) return finish('max-rate');
      rate = Math.min(rate * o.factor, o.maxRate);
    }
  }
  if (held === undefined || broken === undefined) return finish(budgetStop());

  // Refine: bisect between the highest rate that held and the lowest that broke.
  while ((broken - held) / held > o.precision) {
    if (!budgetLeft()) return finish(budgetStop());
    const mid = (held + broken) / 2;
    if (same(mid, held) || same(mid, broken)) break;
    const s = await run(mid, 'refine');
    if (broke(s, o)) broken = s.offered_rate;
    else held = s.offered_rate;
  }

  // Confirm: step the boundary again. When the rate that held breaks on a repeat, the boundary is lower: go down one
  // precision and confirm there (at most three levels). The budget running out here leaves a refined search with fewer
  // repeats, which the interval says.
  for (let level = 0; level < 3 && o.repeats > 0; level++) {
    let lowBroke = false;
    for (let i = 0; i < o.repeats; i++) {
      if (!budgetLeft()) return finish('refined');
      lowBroke = broke(await run(held, 'confirm'), o) || lowBroke;
      if (!budgetLeft()) return finish('refined');
      await run(broken, 'confirm');
    }
    if (!lowBroke) break;
    broken = held;
    held = lower(held);
    if (held < grain) break;
  }
  return finish('refined');
}
