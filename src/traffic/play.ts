import type { Scenario } from 'k6/options';
import type { LearnedWorkload } from '../load/config.js';
import type { TrafficModel } from './model.js';

/** Arrivals are counted per hour, as the model counts them. */
const TIME_UNIT = '1h';
/** Bounds of the VU pool a learned workload sizes (the built-in engine's and k6's practical ceiling). */
const MAX_VUS = 10_000;
const MAX_PREALLOCATED = 100;
/** A pool this many times what Little's law asks for at the peak, as the other workloads size theirs. */
const HEADROOM = 2;
/** An iteration may run on after the end at most this long (the other workloads' ceiling). */
const MAX_GRACEFUL_STOP_S = 120;

/** What `--workload learned` was asked for: the model file, and `--compress N` (a whole day N times faster) or the busiest hour. */
export interface PlayRequest {
  readonly file: string;
  /** Play the whole day, N times faster; undefined: the busiest hour at its own rate. */
  readonly compress?: number | undefined;
  /** Without --compress: how long to hold the busiest hour's rate (default 1h). */
  readonly duration?: string | undefined;
}

/**
 * The learned workload of a traffic model: the busiest hour's arrival rate held (`constant-arrival-rate`, per hour), or
 * the day's 24 hourly rates N times faster (`ramping-arrival-rate`, each hour's rate reached at the end of its
 * 3600/N s stage); a pool sized by Little's law from the peak rate and the learned p99 duration. Think times are not
 * compressed: a person's pause is what it is, so a compressed day has N times the concurrency of the real one.
 *
 * @example
 * learnedWorkload(model, { file: 'traffic-model.json', compress: 144 }).shape.stages.length // 24
 */
export function learnedWorkload(model: TrafficModel, req: PlayRequest): LearnedWorkload {
  const n = req.compress ?? 1;
  const perHour = (x: number) => Math.max(0, Math.round(x * n));
  const hourly = model.arrivals.per_hour_of_day.map(perHour);
  const busiest = Math.max(1, perHour(model.arrivals.busiest_hour.conversations));
  const peakPerSecond = (req.compress ? Math.max(...hourly, 1) : busiest) / 3600;
  const longS = Math.max(model.duration_s.p99, 1);
  const maxVUs = Math.min(MAX_VUS, Math.max(10, Math.ceil(peakPerSecond * longS * HEADROOM)));
  const preAllocatedVUs = Math.min(MAX_PREALLOCATED, maxVUs, Math.max(1, Math.ceil(peakPerSecond * Math.max(model.duration_s.mean, 1))));
  const pool = { preAllocatedVUs, maxVUs, gracefulStop: `${Math.ceil(Math.min(longS, MAX_GRACEFUL_STOP_S))}s` };
  const stageS = Math.max(1, Math.round(3600 / n));
  const shape: Scenario = req.compress
    ? {
        executor: 'ramping-arrival-rate',
        startRate: hourly[0] ?? 0,
        timeUnit: TIME_UNIT,
        stages: hourly.map((target) => ({ target, duration: `${stageS}s` })),
        ...pool,
      }
    : { executor: 'constant-arrival-rate', rate: busiest, timeUnit: TIME_UNIT, duration: req.duration ?? '1h', ...pool };
  return { file: req.file, shape, compress: n, turns: model.turns, thinkTimeS: model.think_time_s, durationS: model.duration_s };
}
