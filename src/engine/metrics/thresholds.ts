// k6 thresholds (/using-k6/thresholds/): parsing `options.thresholds`, checking each against the metrics the script
// declared, and judging each expression on a metric's aggregated value.

import { parseDuration } from '../../core/duration.js';
import type { MetricType } from '../../core/metrics.js';
import { AGGREGATIONS, type Operator, parseMetricKey, parseThresholdExpression, ThresholdError, type ThresholdExpression } from '../../core/thresholds.js';
import type { Tags } from '../types.js';

/** An expression with its abort settings. */
export interface Threshold extends ThresholdExpression {
  readonly abortOnFail: boolean;
  /** ms of test run time before a failure of an abortOnFail threshold may stop the run. */
  readonly delayAbortEvalMs: number;
}

/** The thresholds of one key of `options.thresholds`: a metric, or a sub-metric `metric{tag:value,…}`. */
export interface ThresholdSet {
  /** The key as written (trimmed): summaries name the sub-metric by it. */
  readonly key: string;
  readonly metric: string;
  /** The tags a sample must carry to count in the sub-metric; undefined for the whole metric. */
  readonly tags: Tags | undefined;
  readonly thresholds: readonly Threshold[];
}

/** A threshold judged on a value. */
export interface ThresholdVerdict {
  readonly key: string;
  readonly metric: string;
  readonly threshold: Threshold;
  /** What the aggregation gave; undefined when the (sub-)metric had no sample to give it (the threshold then passes). */
  readonly value: number | undefined;
  readonly ok: boolean;
}

/**
 * Parses `options.thresholds`, syntax only: every key, expression, abortOnFail and delayAbortEval. Throws a
 * ThresholdError on the first mistake, so the engine can refuse the script before the run (exit 104).
 *
 * @example
 * parseThresholds({ http_req_failed: ['rate<0.01'], 'http_req_duration{op:x}': [{ threshold: 'p(95)<500', abortOnFail: true }] });
 */
export function parseThresholds(raw: unknown): ThresholdSet[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ThresholdError('thresholds must be an object of metric name → list of expressions');
  const sets: ThresholdSet[] = [];
  for (const [key, list] of Object.entries(raw as Record<string, unknown>)) {
    const { metric, tags } = parseMetricKey(key);
    if (!Array.isArray(list)) throw new ThresholdError(`thresholds of "${key}" must be a list, e.g. ['p(95)<500']`);
    const thresholds = list.map((item) => {
      try {
        return parseThreshold(item);
      } catch (e) {
        throw new ThresholdError(`invalid threshold on "${key}": ${(e as Error).message}`);
      }
    });
    sets.push({ key: key.trim(), metric, tags, thresholds });
  }
  return sets;
}

function parseThreshold(item: unknown): Threshold {
  if (typeof item === 'string') return { ...parseThresholdExpression(item), abortOnFail: false, delayAbortEvalMs: 0 };
  if (typeof item !== 'object' || item === null) throw new Error('a threshold is a string or { threshold, abortOnFail, delayAbortEval }');
  const o = item as { threshold?: unknown; abortOnFail?: unknown; delayAbortEval?: unknown };
  if (typeof o.threshold !== 'string') throw new Error('the object form needs a "threshold" string');
  if (o.abortOnFail !== undefined && typeof o.abortOnFail !== 'boolean') throw new Error('abortOnFail must be true or false');
  let delayAbortEvalMs = 0;
  if (o.delayAbortEval !== undefined && o.delayAbortEval !== null) {
    if (typeof o.delayAbortEval !== 'string' && typeof o.delayAbortEval !== 'number') throw new Error('delayAbortEval must be a duration such as "10s"');
    delayAbortEvalMs = parseDuration(o.delayAbortEval);
  }
  return { ...parseThresholdExpression(o.threshold), abortOnFail: o.abortOnFail === true, delayAbortEvalMs };
}

/**
 * Checks parsed thresholds against the declared metrics: each key must name a metric (k6's message: `no metric name
 * "X" found`) and each aggregation must fit its type. Throws a ThresholdError on the first mismatch. Call it once the
 * init code declared its custom metrics.
 *
 * @example
 * validateThresholds(sets, (name) => store.typeOf(name));
 */
export function validateThresholds(sets: readonly ThresholdSet[], typeOf: (metric: string) => MetricType | undefined): void {
  for (const set of sets) {
    const type = typeOf(set.metric);
    if (type === undefined) throw new ThresholdError(`invalid threshold defined on ${set.key}; reason: no metric name "${set.metric}" found`);
    const allowed = AGGREGATIONS[type];
    for (const t of set.thresholds) {
      const agg = t.percentile !== undefined ? 'p(N)' : t.aggregation;
      if (!allowed.includes(agg))
        throw new ThresholdError(`invalid threshold "${t.source}" on ${set.key}: ${type} metrics offer ${allowed.join(', ')}, not ${t.aggregation}`);
    }
  }
}

/**
 * Whether `actual <operator> expected` holds.
 *
 * @example
 * compare(120, '<', 500); // true
 */
export function compare(actual: number, operator: Operator, expected: number): boolean {
  switch (operator) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '==':
    case '===':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}

/**
 * Judges every threshold on the value `valueFor` gives for its key and aggregation. An undefined value (the metric has
 * no sample to give it) passes, as in k6, which skips a threshold whose metric has nothing for its aggregation: "we
 * assume that a missing sink entry means that no samples are available yet, and that it's safe to ignore this run"
 * (k6's metrics/thresholds.go). Whether load was delivered is judged apart (ran-as-written.ts, src/load/delivery.ts).
 *
 * @example
 * const verdicts = judgeThresholds(sets, (key, t) => store.aggregate(key, t.aggregation));
 */
export function judgeThresholds(sets: readonly ThresholdSet[], valueFor: (key: string, t: Threshold) => number | undefined): ThresholdVerdict[] {
  const out: ThresholdVerdict[] = [];
  for (const set of sets) {
    for (const t of set.thresholds) {
      const value = valueFor(set.key, t);
      out.push({ key: set.key, metric: set.metric, threshold: t, value, ok: value === undefined || compare(value, t.operator, t.value) });
    }
  }
  return out;
}

/**
 * The first failed abortOnFail threshold whose delayAbortEval has passed, if any: the run must stop on it (exit 99).
 *
 * @example
 * const stop = abortingVerdict(store.judge(), store.elapsedMs());
 */
export function abortingVerdict(verdicts: readonly ThresholdVerdict[], elapsedMs: number): ThresholdVerdict | undefined {
  return verdicts.find((v) => !v.ok && v.threshold.abortOnFail && elapsedMs >= v.threshold.delayAbortEvalMs);
}
