// A workload's executor for one run: the scenario's default (scenarios/NAME.defaults.ts), then the profile's
// `workloads`, then the flags (--rate, --duration, --max-vus), with the VU pool of an arrival-rate workload sized by
// Little's law from the iteration time the SLOs allow, so a slow platform gets the VUs its own SLOs imply.
import type { Scenario } from 'k6/options';
import { durationSeconds } from '../core/duration.js';
import { UsageError } from '../errors.js';
import { found } from '../profile/issues.js';
import type { Profile } from '../profile/schema.js';
import { ROOT } from '../root.js';
import { type EffectiveShape, type LoadConfig, type Thresholds, type ValueSource, WORKLOADS, type WorkloadName } from './config.js';
import { defaultsOf, SCENARIO_DEFAULTS } from './defaults.js';
import { drivesChromium } from './scenario-modules.js';
import { latencyBoundMs } from './slos.js';

/** VUs an arrival-rate scenario without an iteration model may start for a --rate, unless --max-vus says otherwise. */
export const DEFAULT_MAX_VUS = 1000;
/**
 * VUs started before the run, at most: the rest start on demand, so a large pool does not spend minutes starting. A
 * sized pool pre-allocates half of Little's law at the SLO bound (a target at half its SLOs needs no VU started mid-run).
 */
export const MAX_PREALLOCATED_VUS = 100;
/** VUs Little's law may ask for at most, unless the profile or --max-vus says more: a generator's memory is finite. */
export const MAX_SIZED_VUS = 10_000;
/** The longest graceful stop the iteration time may ask for: past it an iteration is interrupted, as k6 does. */
export const MAX_GRACEFUL_STOP_S = 120;
/** Browsers (VUs) at most at once, whatever --rate asks: each is a Chromium of its own. */
export const MAX_BROWSERS = 16;
/**
 * The pool over Little's law at the SLO bound: L = λ·W counts the VUs busy on average when every step takes as long
 * as its SLO allows; twice that leaves room for the tail past the percentile and for a target slower than its SLO,
 * whose breach the thresholds then report (instead of iterations dropped for want of VUs).
 */
export const POOL_HEADROOM = 2;

/**
 * Seconds one iteration takes when every step it waits for takes as long as its SLO allows (Little's law's W), or
 * undefined when the scenario has no iteration model or a step's SLO sets no latency bound.
 *
 * @example
 * iterationSeconds('chat-turns', thresholds); // 3.5 with the default p(95)<500 on create, 5 responds, close
 */
export function iterationSeconds(scenario: string, thresholds: Thresholds): number | undefined {
  const model = defaultsOf(scenario).iteration;
  if (!model) return undefined;
  if (model.boundMs !== undefined) return model.boundMs / 1000;
  let ms = 0;
  for (const step of model.steps ?? []) {
    const bound = latencyBoundMs(thresholds[step.key]);
    if (bound === undefined) return undefined;
    ms += bound * step.count;
  }
  return ms / 1000;
}

/**
 * Every mistake in the profile's `workloads`, one line each (`path: what was expected, what was found`): known
 * scenarios and workload names, and `rate`/`duration` only where the workload has them (a ramp keeps its stages).
 *
 * @example
 * workloadIssues({ workloads: { 'chat-turns': { weekly: {} } } });
 * // ["workloads.chat-turns.weekly: expected a workload (smoke, nightly, capacity), found 'weekly'"]
 */
export function workloadIssues(profile: Pick<Profile, 'workloads'>): string[] {
  const known = Object.keys(SCENARIO_DEFAULTS).join(', ');
  return Object.entries(profile.workloads ?? {}).flatMap(([scenario, byName]) => {
    const d = SCENARIO_DEFAULTS[scenario];
    if (!d) return [`workloads.${scenario}: expected a scenario (${known}), found '${scenario}'`];
    return Object.entries(byName).flatMap(([name, settings]) => {
      const path = `workloads.${scenario}.${name}`;
      const shape = d.workloads[name as WorkloadName];
      if (!shape) return [`${path}: expected a workload (${WORKLOADS.join(', ')}), found '${name}'`];
      const ramp = shape.executor.startsWith('ramping');
      const vuBased = !shape.executor.endsWith('arrival-rate');
      const lines: string[] = [];
      for (const field of ['rate', 'duration'] as const)
        if (ramp && settings[field] !== undefined)
          lines.push(
            `${path}.${field}: expected none (the ${name} workload is a ramp, ${shape.executor}, and keeps its stages), found ${found(settings[field])}`,
          );
      for (const field of ['pre_allocated_vus', 'max_vus'] as const)
        if (vuBased && settings[field] !== undefined)
          lines.push(
            `${path}.${field}: expected none (the ${name} workload runs a number of VUs, ${shape.executor}, not a pool), found ${found(settings[field])}`,
          );
      return lines;
    });
  });
}

/**
 * Checks the profile's `workloads` (see workloadIssues); throws a one-line UsageError on the first mistake.
 * checkExpectations reports them all.
 *
 * @example
 * checkWorkloads({ workloads: { 'chat-turns': { nightly: { rate: 10 } } } }, 'staging.json'); // passes
 */
export function checkWorkloads(profile: Pick<Profile, 'workloads'>, source: string): void {
  const [first] = workloadIssues(profile);
  if (first) throw new UsageError(`${source}: ${first}`);
}

/** The highest rate a shape asks for, per second. */
function peakRate(shape: Scenario & { rate?: number; stages?: { target: number }[]; timeUnit?: string }): number {
  const perUnit = shape.stages ? Math.max(...shape.stages.map((s) => s.target), 0) : (shape.rate ?? 0);
  const unit = shape.timeUnit === '1m' ? 60 : shape.timeUnit === '1h' ? 3600 : 1;
  return perUnit / unit;
}

/**
 * How long an executor runs: its duration, or its stages' together (a learned day is 24 of them).
 *
 * @example
 * shapeDuration({ executor: 'ramping-arrival-rate', stages: [{ duration: '1m', target: 5 }, { duration: '30s', target: 0 }] }); // '90s'
 */
export function shapeDuration(scenario: Scenario): string | undefined {
  const shape = scenario as { duration?: string; stages?: readonly { duration: string }[] };
  if (shape.duration !== undefined || !shape.stages) return shape.duration;
  return `${shape.stages.reduce((s, st) => s + (durationSeconds(st.duration) ?? 0), 0)}s`;
}

type ArrivalShape = Scenario & { rate?: number; duration?: string; preAllocatedVUs?: number; maxVUs?: number; vus?: number; stages?: { target: number }[] };

/**
 * The executor of `workload` for this run, and where each of its figures came from.
 *
 * @example
 * effectiveShape({ scenario: 'chat-turns', workload: 'smoke', profile, thresholds });
 * // { shape: { rate: 5, preAllocatedVUs: 18, maxVUs: 35, … }, sources: { rate: 'default', maxVUs: 'sized', … }, iterationS: 3.5 }
 */
export function effectiveShape(request: {
  scenario: string;
  workload: WorkloadName;
  /** The profile's `workloads` (its `slos` reach here as `thresholds`). */
  profile: Partial<Pick<Profile, 'workloads' | 'slos'>>;
  thresholds: Thresholds;
  overrides?: LoadConfig['overrides'];
}): EffectiveShape {
  const base = defaultsOf(request.scenario).workloads[request.workload] as ArrivalShape;
  const own = request.profile.workloads?.[request.scenario]?.[request.workload] ?? {};
  const flags = request.overrides ?? {};
  const sources: Record<string, ValueSource> = {};
  const pick = <T>(field: string, flag: T | undefined, profile: T | undefined, fallback: T | undefined): T | undefined => {
    const value = flag ?? profile ?? fallback;
    if (value !== undefined) sources[field] = flag !== undefined ? 'flag' : profile !== undefined ? 'profile' : 'default';
    return value;
  };
  // A learned workload brings its own executor and pool, sized from the model (src/traffic/play.ts).
  if (flags.learned) return { shape: flags.learned.shape, sources: { executor: 'learned', rate: 'learned', maxVUs: 'learned' } };
  if (base.executor === 'constant-vus') {
    const vus = pick('vus', flags.rate, own.rate, base.vus);
    const duration = pick('duration', flags.duration, own.duration, base.duration);
    // Only a browser scenario's VUs are Chromiums; another's (voice-calls: a werift call each) go as high as asked.
    const cap = drivesChromium(ROOT, request.scenario) ? MAX_BROWSERS : MAX_SIZED_VUS;
    return { shape: { ...base, vus: Math.min(vus ?? 1, cap), ...(duration ? { duration } : {}) }, sources };
  }
  if (!base.executor.endsWith('arrival-rate')) return { shape: base, sources };

  const constant = base.executor === 'constant-arrival-rate';
  const rate = constant ? pick('rate', flags.rate, own.rate, base.rate) : undefined;
  const duration = constant ? pick('duration', flags.duration, own.duration, base.duration) : undefined;
  const shape: ArrivalShape = { ...base, ...(rate !== undefined ? { rate } : {}), ...(duration ? { duration } : {}) };
  const iterationS = iterationSeconds(request.scenario, request.thresholds);
  const needed = iterationS === undefined ? undefined : Math.ceil(peakRate(shape) * iterationS);

  let maxVUs = pick('maxVUs', flags.maxVUs, own.max_vus, undefined);
  if (maxVUs === undefined) {
    const fallback = base.maxVUs ?? DEFAULT_MAX_VUS;
    // No model: a --rate keeps the old rule of thumb (5 VUs per iteration a second); else the workload's own pool.
    const sized =
      needed !== undefined
        ? Math.min(MAX_SIZED_VUS, Math.ceil(needed * POOL_HEADROOM))
        : flags.rate
          ? Math.min(Math.max(30, flags.rate * 5), DEFAULT_MAX_VUS)
          : fallback;
    maxVUs = needed !== undefined ? Math.max(fallback, sized) : sized;
    sources.maxVUs = maxVUs === fallback && !(needed === undefined && flags.rate) ? 'default' : 'sized';
  }
  let pre = pick('preAllocatedVUs', undefined, own.pre_allocated_vus, undefined);
  if (pre === undefined) {
    const fallback = base.preAllocatedVUs ?? 1;
    const sized =
      needed !== undefined
        ? Math.max(fallback, Math.min(Math.ceil(needed / POOL_HEADROOM), MAX_PREALLOCATED_VUS))
        : flags.rate
          ? Math.max(5, Math.ceil(flags.rate / 2))
          : fallback;
    pre = Math.min(sized, MAX_PREALLOCATED_VUS, maxVUs);
    sources.preAllocatedVUs = pre === fallback ? 'default' : 'sized';
  }
  // An iteration that started just before the end gets as long as the SLOs allow it to finish, not the default's stop.
  const stopS = durationSeconds(String(base.gracefulStop ?? '30s')) ?? 30;
  const gracefulStop = iterationS !== undefined && iterationS > stopS ? `${Math.ceil(Math.min(iterationS, MAX_GRACEFUL_STOP_S))}s` : undefined;
  if (gracefulStop) sources.gracefulStop = 'sized';
  if (pre > maxVUs) throw new UsageError(`workloads.${request.scenario}.${request.workload}: pre_allocated_vus (${pre}) is more than max_vus (${maxVUs})`);
  return { shape: { ...shape, preAllocatedVUs: pre, maxVUs, ...(gracefulStop ? { gracefulStop } : {}) } as Scenario, sources, iterationS };
}
