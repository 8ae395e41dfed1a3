// The script's exported options, read once, turned into the scenarios the executors run
// (/using-k6/scenarios/, /using-k6/k6-options/reference/).
import { durationMs, formatDuration, requireDuration } from '../core/duration.js';

export type ExecutorName = 'constant-vus' | 'ramping-vus' | 'constant-arrival-rate' | 'ramping-arrival-rate' | 'shared-iterations' | 'per-vu-iterations';

export interface Stage {
  readonly durationMs: number;
  readonly target: number;
}

/** One scenario with every default applied; durations in ms. */
export interface ScenarioPlan {
  readonly name: string;
  readonly executor: ExecutorName;
  readonly startTimeMs: number;
  readonly gracefulStopMs: number;
  readonly exec: string;
  readonly env: Readonly<Record<string, string>>;
  readonly tags: Readonly<Record<string, string>>;
  /** constant-vus, shared/per-vu iterations */
  readonly vus: number;
  readonly durationMs: number;
  readonly iterations: number;
  readonly maxDurationMs: number;
  /** ramping-vus */
  readonly startVUs: number;
  readonly gracefulRampDownMs: number;
  /** arrival rates: iterations per timeUnit */
  readonly rate: number;
  readonly timeUnitMs: number;
  readonly startRate: number;
  readonly preAllocatedVUs: number;
  readonly maxVUs: number;
  readonly stages: readonly Stage[];
  /** options.browser set on the scenario: the VU function is async and drives a browser. */
  readonly browser: boolean;
}

const EXECUTORS: readonly ExecutorName[] = [
  'constant-vus',
  'ramping-vus',
  'constant-arrival-rate',
  'ramping-arrival-rate',
  'shared-iterations',
  'per-vu-iterations',
];

const num = (v: unknown, where: string, fallback?: number): number => {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${where}: must be a number ≥ 0, got ${JSON.stringify(v)}`);
  return v;
};

const strings = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)])) : {};

function stagesOf(v: unknown, where: string): Stage[] {
  if (!Array.isArray(v) || v.length === 0) throw new Error(`${where}.stages: must list at least one { duration, target }`);
  return v.map((s: { duration?: unknown; target?: unknown }, i) => ({
    durationMs: requireDuration(s?.duration, `${where}.stages[${i}].duration`),
    target: num(s?.target, `${where}.stages[${i}].target`),
  }));
}

/** The scenarios k6 would run for these options: the `scenarios` object, or the shortcut one named `default`. */
function rawScenarios(o: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const declared = o.scenarios as Record<string, Record<string, unknown>> | undefined;
  if (declared && Object.keys(declared).length > 0) return declared;
  // Shortcuts (/using-k6/k6-options/reference/): stages ⇒ ramping-vus; iterations ⇒ shared-iterations; duration ⇒ constant-vus; nothing ⇒ 1 VU, 1 iteration.
  if (Array.isArray(o.stages)) return { default: { executor: 'ramping-vus', startVUs: o.vus ?? 1, stages: o.stages, gracefulStop: '30s' } };
  if (o.iterations !== undefined)
    return { default: { executor: 'shared-iterations', vus: o.vus ?? 1, iterations: o.iterations, maxDuration: o.duration ?? '10m' } };
  if (o.duration !== undefined) return { default: { executor: 'constant-vus', vus: o.vus ?? 1, duration: o.duration } };
  return { default: { executor: 'per-vu-iterations', vus: 1, iterations: 1 } };
}

/**
 * Every scenario of the options with k6's defaults, or an Error naming the option that is wrong.
 *
 * @example
 * planScenarios({ scenarios: { chat: { executor: 'constant-arrival-rate', rate: 5, duration: '15s', preAllocatedVUs: 5 } } });
 */
export function planScenarios(options: Record<string, unknown>): ScenarioPlan[] {
  minIterationMsOf(options);
  return Object.entries(rawScenarios(options)).map(([name, s]) => {
    const where = `scenarios.${name}`;
    const executor = s.executor as ExecutorName;
    if (!EXECUTORS.includes(executor))
      throw new Error(`${where}.executor: '${String(s.executor)}' is not one the built-in engine runs (${EXECUTORS.join(', ')})`);
    const arrival = executor.endsWith('arrival-rate');
    const preAllocatedVUs = arrival ? num(s.preAllocatedVUs, `${where}.preAllocatedVUs`) : 0;
    const stages = executor.startsWith('ramping') ? stagesOf(s.stages, where) : [];
    const opts = s.options as { browser?: unknown } | undefined;
    return {
      name,
      executor,
      startTimeMs: requireDuration(s.startTime, `${where}.startTime`, 0),
      gracefulStopMs: requireDuration(s.gracefulStop, `${where}.gracefulStop`, 30_000),
      exec: typeof s.exec === 'string' ? s.exec : 'default',
      env: strings(s.env),
      tags: strings(s.tags),
      vus: num(s.vus, `${where}.vus`, 1),
      durationMs: executor === 'constant-vus' || executor === 'constant-arrival-rate' ? requireDuration(s.duration, `${where}.duration`) : 0,
      iterations: num(s.iterations, `${where}.iterations`, 1),
      maxDurationMs: requireDuration(s.maxDuration, `${where}.maxDuration`, 600_000),
      startVUs: num(s.startVUs, `${where}.startVUs`, 1),
      gracefulRampDownMs: requireDuration(s.gracefulRampDown, `${where}.gracefulRampDown`, 30_000),
      rate: executor === 'constant-arrival-rate' ? num(s.rate, `${where}.rate`) : 0,
      timeUnitMs: requireDuration(s.timeUnit, `${where}.timeUnit`, 1000),
      startRate: num(s.startRate, `${where}.startRate`, 0),
      preAllocatedVUs,
      maxVUs: arrival ? Math.max(preAllocatedVUs, num(s.maxVUs, `${where}.maxVUs`, preAllocatedVUs)) : 0,
      stages,
      browser: opts?.browser !== undefined,
    };
  });
}

/**
 * `minIterationDuration` in ms, 0 when unset (k6's options page: "Specify the minimum duration for every single
 * execution"); an Error naming the option when it is not a duration.
 *
 * @example
 * minIterationMsOf({ minIterationDuration: '10s' }) // 10000
 */
export function minIterationMsOf(options: Readonly<Record<string, unknown>>): number {
  return requireDuration(options.minIterationDuration, 'minIterationDuration', 0);
}

/** How long a scenario schedules work, without its graceful stop (ms). */
export function scheduledMs(s: ScenarioPlan): number {
  switch (s.executor) {
    case 'constant-vus':
    case 'constant-arrival-rate':
      return s.durationMs;
    case 'ramping-vus':
    case 'ramping-arrival-rate':
      return s.stages.reduce((t, x) => t + x.durationMs, 0);
    default:
      return s.maxDurationMs;
  }
}

/**
 * A scenario's line under the progress line, as k6 writes one in a log: how far through its schedule it is. For the
 * iteration executors the schedule is their maxDuration, the most they may take, so they may end before 100 %.
 *
 * @example
 * progressLine(plan, 8_000, 4); // 'chat [  40% ] 8s/20s'
 */
export function progressLine(s: ScenarioPlan, elapsedMs: number, nameWidth: number): string {
  const total = scheduledMs(s);
  const done = Math.min(total, Math.max(0, elapsedMs - s.startTimeMs));
  const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
  return `${s.name.padEnd(nameWidth)} [${String(pct).padStart(4)}% ] ${formatDuration(done)}/${formatDuration(total)}`;
}

/** The most VUs a scenario may use. */
export function maxVusOf(s: ScenarioPlan): number {
  switch (s.executor) {
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return s.maxVUs;
    case 'ramping-vus':
      return Math.max(s.startVUs, ...s.stages.map((x) => x.target));
    default:
      return s.vus;
  }
}

const perSecond = (rate: number, unitMs: number) => ((rate * 1000) / unitMs).toFixed(2);

/**
 * The scenario's line of k6's header, in k6's words, which dialtone's generator watch reads
 * (`* chat: 5.00 iterations/s for 15s (maxVUs: 5-30, gracefulStop: 5s)`).
 */
export function headerLine(s: ScenarioPlan): string {
  const grace = `gracefulStop: ${formatDuration(s.gracefulStopMs)}`;
  const start = s.startTimeMs > 0 ? `startTime: ${formatDuration(s.startTimeMs)}, ` : '';
  let text: string;
  switch (s.executor) {
    case 'constant-arrival-rate':
      text = `${perSecond(s.rate, s.timeUnitMs)} iterations/s for ${formatDuration(s.durationMs)} (maxVUs: ${s.preAllocatedVUs}-${s.maxVUs}, ${start}${grace})`;
      break;
    case 'ramping-arrival-rate': {
      const peak = Math.max(s.startRate, ...s.stages.map((x) => x.target));
      text =
        `Up to ${perSecond(peak, s.timeUnitMs)} iterations/s for ${formatDuration(scheduledMs(s))} over ${s.stages.length} stages (maxVUs: ` +
        `${s.preAllocatedVUs}-${s.maxVUs}, ${start}${grace})`;
      break;
    }
    case 'constant-vus':
      text = `${s.vus} looping VUs for ${formatDuration(s.durationMs)} (${start}${grace})`;
      break;
    case 'ramping-vus':
      text =
        `Up to ${maxVusOf(s)} looping VUs for ${formatDuration(scheduledMs(s))} over ${s.stages.length} stages (gracefulRampDown: ` +
        `${formatDuration(s.gracefulRampDownMs)}, ${start}${grace})`;
      break;
    case 'shared-iterations':
      text = `${s.iterations} iterations shared among ${s.vus} VUs (maxDuration: ${formatDuration(s.maxDurationMs)}, ${start}${grace})`;
      break;
    default:
      text = `${s.iterations} iterations for each of ${s.vus} VUs (maxDuration: ${formatDuration(s.maxDurationMs)}, ${start}${grace})`;
  }
  return `           * ${s.name}: ${text}`;
}

/** `summaryTrendStats` of the options, or k6's default. */
export function trendStatsOf(options: Record<string, unknown>): string[] {
  const v = options.summaryTrendStats;
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
}

/** A duration option (e.g. setupTimeout) with its default. */
export const optionMs = (options: Record<string, unknown>, key: string, fallback: number) => durationMs(options[key]) ?? fallback;
