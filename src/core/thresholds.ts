// k6's threshold syntax (/using-k6/thresholds/), written from k6's documentation: an expression, a metric key with its
// sub-metric tags, and which aggregations each metric type offers. The built-in engine parses `options.thresholds`
// with it, and the SLO check (src/load/slos.ts) refuses a profile's SLO that k6 would not parse, before anything runs.
import type { MetricType } from './metrics.js';

/** Tag values are strings (/using-k6/tags-and-groups/). */
type Tags = Readonly<Record<string, string>>;

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
