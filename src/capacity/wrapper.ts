// The k6 entry of one capacity step: it imports the bundled scenario unchanged and replaces only its
// executor (a constant arrival rate) and its thresholds (judged on the steady part of the step).
import { readFileSync } from 'node:fs';

/** The environment variable that carries a step's shape into the wrapper. */
export const STEP_ENV = 'DIALTONE_CAPACITY_STEP';

/** The tag that marks samples taken after the warm-up; thresholds and figures read only those. */
export const PHASE_TAG = 'dialtone_phase';

/** One step's executor, handed to the wrapper as JSON. */
export interface StepShape {
  /** Iterations per minute (k6 arrival rates are integers; per minute keeps fractional rates per second). */
  readonly perMinute: number;
  readonly durationS: number;
  readonly warmupS: number;
  readonly preAllocatedVUs: number;
  readonly maxVUs: number;
  readonly gracefulStopS: number;
  /**
   * The closed model: `sessions` VUs (constant-vus), each running the scenario's `hold` export for the whole step; only
   * the SLO keys `slos` judge it, and `answered`, the counter of messages answered, is exported for the throughput.
   */
  readonly closed?: { readonly sessions: number; readonly messageRate: number; readonly slos: readonly string[]; readonly answered: string };
  /**
   * The learned workload (`--workload learned`): its conversations outlast the window, so the wrapper counts the
   * iterations it starts ({@link STARTED}, the step's delivery) and the scenario tags each request with its phase.
   */
  readonly learned?: boolean;
}

/** The counter of iterations started, per phase: a learned step's conversations started (its delivered load). */
export const STARTED = 'dialtone_iterations_started';

/**
 * Figures every step needs whatever the scenario's thresholds: observation-only thresholds that
 * always hold (they only make k6 export the steady submetric). Their expressions are this table's.
 */
export const OBSERVED: Readonly<Record<string, string>> = {
  iterations: 'count>=0',
  iteration_duration: 'max>=0',
  http_reqs: 'count>=0',
  http_req_failed: 'rate>=0',
  http_req_duration: 'max>=0',
};

/** The observation-only threshold of a closed-model step's answered-messages counter, and of a learned step's starts. */
export const ANSWERED = 'count>=0';

/** A threshold key with the steady-phase tag added: `m{op:x}` → `m{op:x,dialtone_phase:steady}`. */
export function steadyKey(key: string): string {
  return key.endsWith('}') ? `${key.slice(0, -1)},${PHASE_TAG}:steady}` : `${key}{${PHASE_TAG}:steady}`;
}

/** The names a bundled ESM script exports (esbuild ends it with one `export { … }` statement). */
export function exportsOf(bundle: string): string[] {
  const block = /export\s*\{([^}]*)\}\s*;?\s*(?:\/\/# sourceMappingURL=.*)?\s*$/.exec(bundle)?.[1] ?? '';
  return block
    .split(',')
    .map(
      (e) =>
        e
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? '',
    )
    .filter(Boolean);
}

/**
 * The wrapper's source for a bundled scenario at `./script.js`.
 *
 * @example
 * writeFileSync(join(work, 'step.js'), wrapperSource(join(work, 'script.js')));
 */
export function wrapperSource(bundlePath: string): string {
  const names = exportsOf(readFileSync(bundlePath, 'utf8'));
  const passThrough = names.filter((n) => n !== 'default' && n !== 'options');
  return `import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import * as s from './script.js';
${passThrough.length ? `export { ${passThrough.join(', ')} } from './script.js';\n` : ''}
const STEP = JSON.parse(__ENV.${STEP_ENV});
const steadyKey = (key) => (key.endsWith('}') ? key.slice(0, -1) + ',${PHASE_TAG}:steady}' : key + '{${PHASE_TAG}:steady}');
const OBSERVED = ${JSON.stringify(OBSERVED)};
const ANSWERED = ${JSON.stringify(ANSWERED)};
const CLOSED = STEP.closed;
const started = STEP.learned ? new Counter('${STARTED}') : undefined;
// A held step is judged by the SLOs its steady part samples: the rest (setup) fall in the warm-up.
const judged = (key) => !CLOSED || CLOSED.slos.includes(key.split('{')[0]);
const thresholds = {};
for (const [key, list] of Object.entries(s.options.thresholds || {})) {
  if (judged(key)) thresholds[steadyKey(key)] = list.map((t) => (typeof t === 'string' ? t : { threshold: t.threshold }));
}
for (const [metric, expression] of Object.entries({ ...OBSERVED, ...(CLOSED ? { [CLOSED.answered]: ANSWERED } : {}), ...(started ? { '${STARTED}': ANSWERED } : {}) })) {
  const key = steadyKey(metric);
  thresholds[key] = [...(thresholds[key] || []), expression];
}
const scenarios = {};
for (const [name, shape] of Object.entries(s.options.scenarios || {})) {
  const { vus, stages, startRate, iterations, maxDuration, ...rest } = shape;
  const { rate, timeUnit, preAllocatedVUs, maxVUs, ...common } = rest;
  scenarios[name] = CLOSED
    ? { ...common, executor: 'constant-vus', vus: CLOSED.sessions, duration: STEP.durationS + 's', gracefulStop: STEP.gracefulStopS + 's' }
    : {
        ...rest,
        executor: 'constant-arrival-rate',
        rate: STEP.perMinute,
        timeUnit: '1m',
        duration: STEP.durationS + 's',
        preAllocatedVUs: STEP.preAllocatedVUs,
        maxVUs: STEP.maxVUs,
        gracefulStop: STEP.gracefulStopS + 's',
      };
}
export const options = {
  ...s.options,
  scenarios,
  thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};
const WARMUP_MS = STEP.warmupS * 1000;
const END_MS = STEP.durationS * 1000;
const phase = () => {
  const t = exec.instance.currentTestRunDuration;
  return t < WARMUP_MS ? 'warmup' : t < END_MS ? 'steady' : 'tail';
};
// Samples taken during an iteration carry the phase it started in; k6's own iteration metrics,
// emitted after it returns, carry the phase it ended in, so throughput counts completions in the window.
// A held session's iteration lasts the step, and a learned conversation may: the scenario marks the phase itself
// before each timed piece.
const mark = () => {
  exec.vu.metrics.tags.${PHASE_TAG} = phase();
};
export default async function step(data) {
  mark();
  started?.add(1);
  const out = CLOSED
    ? await s.hold({ messageRate: CLOSED.messageRate, remainingMs: () => END_MS - exec.instance.currentTestRunDuration, mark })
    : await s.default(data, { mark });
  mark();
  return out;
}
`;
}
