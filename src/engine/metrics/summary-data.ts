// The data handleSummary(data) gets (/results-output/end-of-test/custom-summary/), in its documented shape, which is
// not the legacy --summary-export's: groups and checks are arrays, a Rate's values are `{ rate, passes, fails }`.
import type { GroupNode } from './groups.js';
import { summaryKeys, summaryValues } from './sink.js';
import type { MetricStore } from './store.js';

/** A group of `data.root_group`: its sub-groups and checks in the order they were first seen. */
export interface SummaryGroup {
  readonly name: string;
  readonly path: string;
  readonly id: string;
  readonly groups: SummaryGroup[];
  readonly checks: { name: string; path: string; id: string; passes: number; fails: number }[];
}

/** `root_group{name:'', path:'', groups:[same shape], checks:[{name, path:'::grp::check', passes, fails}]}`. */
export function summaryGroup(g: GroupNode): SummaryGroup {
  return {
    name: g.name,
    path: g.path,
    id: g.id,
    groups: [...g.groups.values()].map(summaryGroup),
    checks: [...g.checks.values()].map((c) => ({ name: c.name, path: c.path, id: c.id, passes: c.passes, fails: c.fails })),
  };
}

/** A metric's `values`: counter `{count, rate}`, gauge `{value, min, max}`, rate `{rate, passes, fails}`, trend its stats. */
const valueKeys = (type: Parameters<typeof summaryKeys>[0], trendStats: readonly string[]) =>
  type === 'rate' ? ['rate', 'passes', 'fails'] : summaryKeys(type, trendStats);

/**
 * handleSummary's argument: every metric with its type, what it contains, its values and its thresholds' outcomes
 * (`ok`), the root group, the options it documents and the run's state.
 *
 * @example
 * handleSummaryData(store, ['avg', 'p(95)']).root_group.checks; // [{ name: 'status is 200', path: '::status is 200', … }]
 */
export function handleSummaryData(store: MetricStore, trendStats: readonly string[], tty = { stdout: false, stderr: false }) {
  const seconds = store.elapsedMs() / 1000;
  const verdicts = store.lastVerdicts ?? store.judge();
  const metrics: Record<string, unknown> = {};
  for (const e of store.entries(true)) {
    const own = verdicts.filter((v) => v.key === e.key);
    metrics[e.key] = {
      type: e.decl.type,
      contains: e.decl.contains,
      values: summaryValues(e.sink, valueKeys(e.decl.type, trendStats), seconds),
      ...(own.length ? { thresholds: Object.fromEntries(own.map((v) => [v.threshold.source, { ok: v.ok }])) } : {}),
    };
  }
  return {
    metrics,
    root_group: summaryGroup(store.groups.root),
    options: { summaryTrendStats: [...trendStats], summaryTimeUnit: '' },
    state: { isStdOutTTY: tty.stdout, isStdErrTTY: tty.stderr, testRunDurationMs: store.elapsedMs() },
  };
}
