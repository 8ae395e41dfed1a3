// A simulated surface for the capacity search's own tests: a queue of known capacity whose every step sees that capacity
// moved by seeded noise, stepped in no time on a clock of its own. The search's coarse, refine and confirm walk, its
// budgets and the analysis after it run on it in milliseconds, over as many seeds as a test likes; the real searches
// (tests/capacity*.test.ts) keep one end-to-end run each.
import { seeded } from '../nightly/noise.js';
import type { Clock, StepRunner } from './search.js';
import type { StepPlan, StepResult } from './step.js';

/** The surface: what it serves, how much that moves from step to step, and what the generator can offer. */
export interface SurfaceOptions {
  /** Iterations a second the queue completes (the closed model: sessions it keeps up with). The known capacity. */
  readonly capacity: number;
  /** Each step's capacity is `capacity × (1 + u)`, u uniform in [−noise, noise]: the spread a real machine shows. */
  readonly noise?: number;
  readonly seed?: number;
  /** The latency SLO, p95 of the step's requests below this many ms. */
  readonly sloMs?: number;
  /** Iterations a second the generator can start (its VUs run out above it, iterations dropped); none by default. */
  readonly generatorLimit?: number;
  /** The closed model: sockets per session and messages a second on each (`offered_rate` is then sessions held). */
  readonly closed?: { readonly sockets: number; readonly messageRate: number };
  /** An engine exit code to give at this step index (a step the engine could not run). */
  readonly failAt?: { readonly index: number; readonly exitCode: number };
}

/** A surface's step runner, its clock, and what each step's capacity was (the truth a test compares the search with). */
export interface SimulatedSurface {
  readonly runStep: StepRunner;
  readonly now: Clock;
  /** Capacity each step saw, by step index. */
  readonly capacities: number[];
}

const METRIC = 'http_req_duration';

/**
 * A queue of known capacity. Below its capacity a step's p95 grows with the load, under the SLO; above it the queue grows
 * for the whole window, so p95 passes the SLO and completions fall behind the rate offered once it is far enough above.
 *
 * @example
 * const surface = simulatedSurface({ capacity: 2.57, noise: 0.05, seed: 7 });
 * const outcome = await searchCapacity(surface.runStep, options, undefined, surface.now);
 */
export function simulatedSurface(options: SurfaceOptions): SimulatedSurface {
  const random = seeded(options.seed ?? 1);
  const sloMs = options.sloMs ?? 500;
  let clockMs = 0;
  const capacities: number[] = [];
  const runStep: StepRunner = async (plan) => {
    const capacity = options.capacity * (1 + (options.noise ?? 0) * (2 * random() - 1));
    capacities[plan.index] = capacity;
    clockMs += (plan.durationS + (plan.gracefulStopS ?? 0)) * 1000;
    return stepOn(plan, capacity, sloMs, options);
  };
  return { runStep, now: () => clockMs, capacities };
}

/** One step's figures on a queue of `capacity`. */
function stepOn(plan: StepPlan, capacity: number, sloMs: number, o: SurfaceOptions): StepResult {
  const window = plan.durationS - plan.warmupS;
  const rate = o.closed ? Math.max(1, Math.round(plan.rate)) : plan.rate;
  const started = o.generatorLimit === undefined ? rate : Math.min(rate, o.generatorLimit);
  const completed = Math.min(started, capacity);
  // Under capacity the queue is stable; over it, what is queued grows for the whole window, and so does the wait.
  const p95 = started <= capacity ? sloMs * (started / capacity) * 0.9 : sloMs * (1 + ((started - capacity) * window) / capacity);
  const failed = p95 >= sloMs;
  const dropped = Math.ceil((rate - started) * plan.durationS);
  const vusCap = o.closed ? rate : o.generatorLimit === undefined ? plan.maxVUs : 1;
  const base = {
    index: plan.index,
    stage: plan.stage,
    offered_rate: rate,
    duration_s: plan.durationS,
    warmup_s: plan.warmupS,
    throughput: completed,
    requests_per_s: completed,
    requests_per_iteration: 1,
    error_rate: 0,
    dropped_iterations: dropped,
    dropped_share: rate > 0 ? (rate - started) / rate : 0,
    vus_in_use: dropped > 0 ? vusCap : Math.min(vusCap, Math.ceil(started * 0.2)),
    vus_cap: vusCap,
    generator_cpu_cores: 0.1,
    machine_busy: 0.3,
    mean_iteration_s: 0.2,
    iteration_spread_s: 0,
    concurrency: completed * 0.2,
    latency: { [METRIC]: { p50: p95 / 2, p95, p99: p95 * 1.2 } },
    thresholds: [{ metric: METRIC, expression: `p(95)<${sloMs}`, passed: !failed, value: p95 }],
    slo_held: !failed,
    k6_exit_code: plan.index === o.failAt?.index ? o.failAt.exitCode : failed ? 99 : 0,
    wall_s: plan.durationS + (plan.gracefulStopS ?? 0),
  };
  if (!o.closed) return base;
  const perSession = o.closed.sockets * o.closed.messageRate;
  return { ...base, messages: { offered_per_s: rate * perSession, answered_per_s: completed * perSession } };
}
