// The SLOs a run is judged by: each scenario's defaults (scenarios/NAME.defaults.ts) with the profile's `slos` in place
// of the keys it names. A profile's SLO is checked as k6 checks a threshold (key, metric, expression, aggregation), so a
// mistake is a one-line usage error before anything runs, on either engine.

import { CORE_METRICS } from '../core/metrics.js';
import { AGGREGATIONS, parseMetricKey, parseThresholdExpression } from '../core/thresholds.js';
import { UsageError } from '../errors.js';
import type { Profile } from '../profile/schema.js';
import { ROOT } from '../root.js';
import type { MetricKind, ScenarioDefaults, SloEntry, ThresholdItem, Thresholds, WorkloadName } from './config.js';
import { defaultsOf, SCENARIO_DEFAULTS } from './defaults.js';
import { moduleMetricsOf } from './scenario-modules.js';

/**
 * The type of every metric a scenario can be judged on: k6's core metrics, the built-ins of the modules its bundle
 * imports, its own.
 */
function metricsOf(scenario: string, d: ScenarioDefaults): Map<string, MetricKind> {
  const all = new Map<string, MetricKind>();
  for (const m of [...CORE_METRICS, ...moduleMetricsOf(ROOT, scenario)]) all.set(m.name, m.type);
  for (const [name, type] of Object.entries(d.metrics)) all.set(name, type);
  return all;
}

const expressionOf = (t: ThresholdItem) => (typeof t === 'string' ? t : t.threshold);

/** A core parse error's reason without the text it quotes first (`"p(101)<1": the percentile…` → `the percentile…`). */
const reasonAfter = (message: string, quoted: string): string => (message.startsWith(`"${quoted}": `) ? ` (${message.slice(quoted.length + 4)})` : '');

/**
 * Why k6 would refuse `key: list` for this scenario, one line per mistake as `path: what was expected, what was
 * found`: an unparseable key or expression, a metric the scenario never emits, an aggregation its type does not offer.
 */
function sloProblems(scenario: string, d: ScenarioDefaults, path: string, key: string, list: readonly ThresholdItem[]): string[] {
  let metric: string;
  try {
    metric = parseMetricKey(key).metric;
  } catch (e) {
    return [`${path}: expected a metric or metric{tag:value,…} name, found '${key}'${reasonAfter((e as Error).message, key)}`];
  }
  const metrics = metricsOf(scenario, d);
  const type = metrics.get(metric);
  if (!type) return [`${path}: expected a metric this scenario emits (${[...metrics.keys()].sort().join(', ')}), found '${metric}'`];
  return list.flatMap((t, i) => {
    const source = expressionOf(t);
    try {
      const e = parseThresholdExpression(source);
      const agg = e.percentile !== undefined ? 'p(N)' : e.aggregation;
      return AGGREGATIONS[type].includes(agg)
        ? []
        : [`${path}[${i}]: expected an aggregation a ${type} offers (${AGGREGATIONS[type].join(', ')}), found '${source}'`];
    } catch (e) {
      const reason = reasonAfter((e as Error).message, source);
      return [`${path}[${i}]: expected a threshold expression (<aggregation> <operator> <number>, e.g. p(95)<500), found '${source}'${reason}`];
    }
  });
}

/**
 * Every mistake in the profile's `slos`, one line each (`path: what was expected, what was found`): a known scenario,
 * a metric it emits, expressions k6 would parse with an aggregation the metric's type offers.
 *
 * @example
 * sloIssues({ slos: { 'chat-turn': {} } }); // ["slos.chat-turn: expected a scenario (chat-turns, …), found 'chat-turn'"]
 */
export function sloIssues(profile: Pick<Profile, 'slos'>): string[] {
  return Object.entries(profile.slos ?? {}).flatMap(([scenario, slos]) => {
    const d = SCENARIO_DEFAULTS[scenario];
    if (!d) return [`slos.${scenario}: expected a scenario (${Object.keys(SCENARIO_DEFAULTS).join(', ')}), found '${scenario}'`];
    return Object.entries(slos).flatMap(([key, list]) => sloProblems(scenario, d, `slos.${scenario}["${key}"]`, key, list));
  });
}

/**
 * Checks every entry of the profile's `slos` (see sloIssues); throws a one-line UsageError (exit 2) on the first
 * mistake. checkExpectations reports them all.
 *
 * @example
 * checkSlos({ ...profile, slos: { 'chat-turns': { 'http_req_duration{op:chat.respond}': ['p(95)<3000'] } } }, 'staging.json'); // passes
 */
export function checkSlos(profile: Pick<Profile, 'slos'>, source: string): void {
  const [first] = sloIssues(profile);
  if (first) throw new UsageError(`${source}: ${first}`);
}

/**
 * The SLOs of a scenario for a profile: every default key, and every profile key, with where it came from.
 *
 * @example
 * effectiveSlos('chat-turns', { slos: { 'chat-turns': { 'http_req_duration{op:chat.respond}': ['p(95)<3000'] } } });
 * // [{ key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<3000'], source: 'profile' }, …defaults]
 */
export function effectiveSlos(scenario: string, profile: Pick<Profile, 'slos'>): SloEntry[] {
  const own = profile.slos?.[scenario] ?? {};
  const entries: SloEntry[] = Object.entries(defaultsOf(scenario).slos).map(([key, expressions]) =>
    own[key] ? { key, expressions: own[key], source: 'profile' } : { key, expressions, source: 'default' },
  );
  for (const [key, expressions] of Object.entries(own)) if (!entries.some((e) => e.key === key)) entries.push({ key, expressions, source: 'profile' });
  return entries;
}

/**
 * k6's `options.thresholds` for a run: the effective SLOs, with abortOnFail on the scenario's abortInCapacity keys when
 * the workload is the capacity ramp (past the knee the rest of the ramp is wasted load).
 *
 * @example
 * thresholdsFor('chat-turns', 'smoke', profile)['http_req_duration{op:chat.create}']; // ['p(95)<500']
 */
export function thresholdsFor(scenario: string, workload: WorkloadName, profile: Pick<Profile, 'slos'>): Thresholds {
  const abort = workload === 'capacity' ? new Set(defaultsOf(scenario).abortInCapacity ?? []) : new Set<string>();
  return Object.fromEntries(
    effectiveSlos(scenario, profile).map(({ key, expressions }) => [
      key,
      abort.has(key) ? expressions.map((t) => (typeof t === 'string' ? { threshold: t, abortOnFail: true } : t)) : expressions,
    ]),
  );
}

/**
 * The bound an SLO puts on one sample of its key, in ms: the value of its first `p(N)<X`, `max<X` (or `<=`), if any.
 *
 * @example
 * latencyBoundMs(['p(95)<3000']); // 3000
 */
export function latencyBoundMs(list: readonly ThresholdItem[] | undefined): number | undefined {
  for (const t of list ?? []) {
    const e = parseThresholdExpression(expressionOf(t));
    if (
      (e.percentile !== undefined || e.aggregation === 'max' || e.aggregation === 'avg' || e.aggregation === 'med') &&
      (e.operator === '<' || e.operator === '<=')
    )
      return e.value;
  }
  return undefined;
}

/**
 * The name of the SLO set a run was judged by: `defaults`, or `profile NAME` once the profile set any of them.
 *
 * @example
 * sloSetName('staging-us', effectiveSlos('chat-turns', profile)); // 'profile staging-us'
 */
export function sloSetName(target: string, entries: readonly SloEntry[]): string {
  return entries.some((e) => e.source === 'profile') ? `profile ${target}` : 'defaults';
}
