// What an executor gets from the engine: VUs to run iterations on, the clock, and where to report.
import type { ScenarioPlan } from '../options.js';
import type { Part } from '../segments.js';
import type { IterationEnd, Vu } from '../vu.js';

export interface ExecutorContext {
  readonly plan: ScenarioPlan;
  /** This engine's part of the run (a machine's segment, within it a worker's). */
  readonly part: Part;
  /** ms since the run started (all scenarios share one start). */
  now(): number;
  /** Resolves at `atMs` since the run started, or at once when the run stops; undefined when that time has passed. */
  at(atMs: number): Promise<void> | undefined;
  /** Aborted when the whole run stops (SIGINT, abortOnFail, exec.test.abort): no new iterations, interrupt the rest. */
  readonly stopped: AbortSignal;
  /** A VU made now for this scenario (the init context runs); counted in vus_max. */
  newVu(): Vu;
  /**
   * Runs one iteration of the scenario's function on `vu`; counts it active meanwhile. Its numbers
   * (`exec.scenario.iterationInTest`) come from the counter every worker of the instance shares: sequential from 0.
   * `dueMs`, an arrival's time in its schedule (ms since the run started), records how late it starts
   * (`iteration_start_lag`, start-lag.ts).
   */
  iterate(vu: Vu, dueMs?: number): Promise<IterationEnd>;
  /**
   * shared-iterations: takes one iteration from the scenario's pool, which every worker of the instance shares ("a
   * fixed amount of iterations are shared between a number of VUs"); false once none is left.
   */
  claim(): boolean;
  /** shared-iterations: the share of the pool taken, 0..1. */
  claimedShare(): number;
  /** An arrival the executor could not start: no VU was free and none could be made (`dropped_iterations`). */
  dropped(): void;
  /** k6's warning when an arrival-rate scenario runs out of VUs; said once per scenario. */
  insufficient(activeVus: number): void;
  /** The scenario's progress, 0..1, for k6/execution. */
  setProgress(fn: () => number): void;
}

/** Runs a scenario to its end (graceful stop included). */
export type Executor = (ctx: ExecutorContext) => Promise<void>;

/**
 * Waits for `running` iterations until `graceMs` after now, then interrupts what is left (k6 docs,
 * /using-k6/scenarios/concepts/graceful-stop/: "iterations that are still running … get gracefulStop to finish, then
 * they are interrupted").
 */
export async function gracefulStop(ctx: ExecutorContext, running: ReadonlySet<Promise<unknown>>, vus: Iterable<Vu>, graceMs: number): Promise<void> {
  if (running.size === 0) return;
  const until = ctx.now() + graceMs;
  const all = Promise.all([...running]).then(() => undefined);
  await Promise.race([all, ctx.at(until)]);
  if (running.size > 0) for (const vu of vus) vu.interrupt();
  await all;
}
