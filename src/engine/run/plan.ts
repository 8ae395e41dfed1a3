// The options, turned into what the run does: its scenarios' plans, its thresholds and the store that judges them, and
// how many worker threads share the VUs.
import { availableParallelism } from 'node:os';
import { MetricStore } from '../metrics/store.js';
import { parseThresholds, type ThresholdSet } from '../metrics/thresholds.js';
import { BUILTIN_METRICS, modulesOf } from '../modules/descriptions.js';
import { maxVusOf, planScenarios, type ScenarioPlan, trendStatsOf } from '../options.js';
import { answeredCounter } from '../ran-as-written.js';
import { type Part, shareOf } from '../segments.js';
import { START_LAG } from '../start-lag.js';
import type { RunContext } from './context.js';
import { EXIT, orFatal } from './exit-codes.js';
import type { Initialised } from './init.js';

/** What the run does, and where its samples go. */
export interface RunPlan {
  readonly plans: ScenarioPlan[];
  readonly thresholds: ThresholdSet[];
  readonly trendStats: readonly string[];
  readonly store: MetricStore;
  /** Requests answered so far (ran-as-written.ts). */
  readonly answered: () => number;
}

/**
 * Plans the scenarios and the thresholds, and makes the store the init context's samples go to from now on; options
 * that do not hold together are k6's 104.
 *
 * @example
 * const plan = planRun(run, init);
 */
export function planRun(run: RunContext, init: Initialised): RunPlan {
  const { plans, thresholds } = orFatal(EXIT.invalidConfig, () => ({
    plans: planScenarios(init.options),
    thresholds: run.args.noThresholds ? [] : parseThresholds(init.options.thresholds ?? {}),
  }));
  const trendStats = trendStatsOf(init.options);
  const store = new MetricStore({ thresholds, now: () => run.io.clock.now() });
  for (const m of BUILTIN_METRICS) store.declare(m);
  store.declare(START_LAG);
  init.forward.connect(store);
  const answered = answeredCounter(store);
  orFatal(EXIT.invalidConfig, () => store.validateThresholds());
  return { plans, thresholds, trendStats, store, answered };
}

/**
 * Worker threads for a run: one per core, one for a run of a module that drives Chromium (it takes the cores), at most
 * the VUs' count.
 *
 * @example
 * workerCount(plans, ['k6/http'], parseSegment(undefined, undefined), undefined); // availableParallelism() or fewer
 */
export function workerCount(plans: readonly ScenarioPlan[], imports: readonly string[], segment: Part, asked: number | undefined): number {
  if (modulesOf(imports).some((m) => m.drivesChromium)) return 1;
  const most = plans.reduce((n, p) => n + shareOf(segment, Math.max(1, maxVusOf(p))), 0);
  return Math.max(1, Math.min(asked ?? availableParallelism(), most));
}

/**
 * DIALTONE_ENGINE_WORKERS: the worker threads when --workers is not given (dialtone load passes no flag of its own).
 *
 * @example
 * workersFromEnv({ DIALTONE_ENGINE_WORKERS: '2' }); // 2
 */
export function workersFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const n = Number(env.DIALTONE_ENGINE_WORKERS);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : undefined;
}
