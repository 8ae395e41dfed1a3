// k6 thresholds (/using-k6/thresholds/): parsing `options.thresholds`, checking each against the metrics the script
// declared, and judging each expression on a metric's aggregated value.

import { parseDuration } from '../duration.js';
import type { MetricType, Tags } from '../types.js';

/** The comparison of a threshold expression. */
export type Operator = '<' | '<=' | '>' | '>=' | '==' | '===' | '!=';

/** One threshold expression, `<aggregation> <operator> <number>`. */
export interface ThresholdExpression {
  /** As written: k6 keys its summaries by the expression's own text. */
  readonly source: string;
  /** `avg` `min` `max` `med` `count` `rate` `value`, or `p(N)` with N as written (spaces dropped). */
  readonly aggregation: string;
  /** N of `p(N)`, 0..100; undefined for the other aggregations. */
  readonly percentile: number | undefined;
  readonly operator: Operator;
  readonly value: number;
}

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
  /** What the aggregation gave; undefined when the (sub-)metric had no sample to give it. */
  readonly value: number | undefined;
  readonly ok: boolean;
}

/** A mistake in `options.thresholds`: its message is one line, naming the key and the expression. */
export class ThresholdError extends Error {
  override readonly name = 'ThresholdError';
}

/** Which aggregations each metric type offers (/using-k6/thresholds/, "Threshold syntax"). */
export const AGGREGATIONS: Readonly<Record<MetricType, readonly string[]>> = {
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p(N)'],
};

const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const EXPRESSION = new RegExp(String.raw`^\s*(avg|min|max|med|count|rate|value|p\s*\(([^)]*)\))\s*(===|==|!=|<=|>=|<|>)\s*(${NUMBER})\s*$`);
const PERCENTILE = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*$/;

/**
 * Parses one threshold expression. `p(N)` takes N from 0 to 100, decimals allowed; spaces around tokens are fine.
 *
 * @example
 * parseThresholdExpression('p(99.9) < 1500'); // { aggregation: 'p(99.9)', percentile: 99.9, operator: '<', value: 1500, … }
 */
export function parseThresholdExpression(source: string): ThresholdExpression {
  const m = EXPRESSION.exec(source);
  if (!m) throw new ThresholdError(`"${source}" is not a threshold expression (want <aggregation> <operator> <number>, e.g. p(95)<500)`);
  let aggregation = m[1] as string;
  let percentile: number | undefined;
  if (aggregation.startsWith('p')) {
    const n = PERCENTILE.exec(m[2] as string);
    percentile = n ? Number(n[1]) : Number.NaN;
    if (!n || !(percentile >= 0 && percentile <= 100))
      throw new ThresholdError(`"${source}": the percentile of p(N) must be a number from 0 to 100, not "${(m[2] as string).trim()}"`);
    aggregation = `p(${(n[1] as string).trim()})`;
  }
  return { source, aggregation, percentile, operator: m[3] as Operator, value: Number(m[4]) };
}

/**
 * Splits a thresholds key into the metric and the tags of its sub-metric (`http_req_duration{type:API,status:200}`).
 * A tag value keeps everything after the first colon (URLs have colons).
 *
 * @example
 * parseMetricKey('http_req_duration{op:chat.respond}'); // { metric: 'http_req_duration', tags: { op: 'chat.respond' } }
 */
export function parseMetricKey(key: string): { metric: string; tags: Tags | undefined } {
  const k = key.trim();
  const open = k.indexOf('{');
  if (open < 0) {
    if (k === '' || k.includes('}')) throw new ThresholdError(`"${key}" is not a metric name`);
    return { metric: k, tags: undefined };
  }
  const metric = k.slice(0, open).trim();
  if (metric === '' || !k.endsWith('}')) throw new ThresholdError(`"${key}" is not a metric or metric{tag:value,…} name`);
  const inner = k.slice(open + 1, -1).trim();
  if (inner === '') throw new ThresholdError(`"${key}": a sub-metric needs at least one tag:value between the braces`);
  const tags: Record<string, string> = {};
  for (const part of inner.split(',')) {
    const colon = part.indexOf(':');
    const name = colon < 0 ? '' : part.slice(0, colon).trim();
    if (name === '') throw new ThresholdError(`"${key}": "${part.trim()}" is not a tag:value filter`);
    tags[name] = unquote(part.slice(colon + 1).trim());
  }
  return { metric, tags };
}

/** `"v"` or `'v'` → `v`: quoting a value in the key is common in scripts and never part of the tag itself. */
const unquote = (v: string) => (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0] ? v.slice(1, -1) : v);

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
 * Judges every threshold on the value `valueFor` gives for its key and aggregation. An undefined value (nothing was
 * measured) fails the threshold: a verdict is never green when what it judges did not happen.
 *
 * @example
 * const verdicts = judgeThresholds(sets, (key, t) => store.aggregate(key, t.aggregation));
 */
export function judgeThresholds(sets: readonly ThresholdSet[], valueFor: (key: string, t: Threshold) => number | undefined): ThresholdVerdict[] {
  const out: ThresholdVerdict[] = [];
  for (const set of sets) {
    for (const t of set.thresholds) {
      const value = valueFor(set.key, t);
      out.push({ key: set.key, metric: set.metric, threshold: t, value, ok: value !== undefined && compare(value, t.operator, t.value) });
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
