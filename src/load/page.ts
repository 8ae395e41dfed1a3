import type { NightMetric } from '../nightly/metrics.js';
import { badge, esc, page } from '../report/html.js';
import type { Delivery } from './delivery.js';
import { type EngineId, engineName } from './engine-version.js';
import type { K6Summary, ThresholdResult } from './summary.js';

/** What one load run leaves behind in result.json, and one line of history.jsonl. */
export interface LoadResult {
  readonly scenario: string;
  readonly profile: string;
  readonly target: string;
  /** The engine that ran the load; absent in runs from before the built-in engine, which were all on k6. */
  readonly engine?: EngineId;
  readonly started_at: string;
  readonly duration_ms: number;
  /** The engine's exit code (k6's codes: 99 when a threshold failed), whichever engine ran. */
  readonly k6_exit_code: number;
  readonly passed: boolean;
  /** Set when the profile turned certificate verification off (`tls.insecure`): the page says so. */
  readonly tls_insecure?: boolean;
  /** The scenario's figures: name to value (rates per second, latencies in ms). */
  readonly figures: Record<string, number>;
  readonly headline: string[];
  readonly thresholds: ThresholdResult[];
  /** The workload (profile, with --rate/--duration) and the metrics a regression verdict compares: src/nightly. */
  readonly workload?: string;
  readonly metrics?: Record<string, NightMetric>;
  /** Whether the load asked for was delivered (src/load/delivery.ts); absent in runs from before it was judged. */
  readonly delivery?: Delivery;
}

/** The engine a run was on, as the page names it (a run recorded before engines were named was on k6). */
const engineOf = (r: LoadResult) => (r.engine ? engineName(r.engine) : 'k6 (version not recorded)');

const fmt = (v: number | undefined, unit = '') => (v === undefined ? '—' : `${v >= 100 ? v.toFixed(0) : v.toFixed(2)}${unit}`);

/** The load report page of one run, with the trend of earlier runs of the same scenario. */
export function loadPage(
  r: LoadResult,
  summary: K6Summary,
  history: readonly LoadResult[],
  hasDashboard: boolean,
  nightly = '',
  capacity?: { href: string; text: string },
): string {
  const trends = Object.entries(summary.metrics)
    .filter(([, m]) => typeof m['p(95)'] === 'number')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([name, m]) =>
        `<tr><td><code>${esc(name)}</code></td>${['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'].map((k) => `<td>${fmt(m[k] as number | undefined)}</td>`).join('')}</tr>`,
    )
    .join('');
  const counters = Object.entries(summary.metrics)
    .filter(([, m]) => typeof m.count === 'number' || typeof m.passes === 'number')
    .map(
      ([name, m]) =>
        `<tr><td><code>${esc(name)}</code></td><td>${m.count ?? `${m.passes} passed / ${m.fails} failed`}</td><td>${fmt((m.rate ?? m.value) as number | undefined)}</td></tr>`,
    )
    .join('');
  const thresholds = r.thresholds
    .map(
      (t) =>
        `<tr><td><code>${esc(t.metric)}</code></td><td><code>${esc(t.expression)}</code></td><td>${fmt(t.value)}</td><td>${badge(t.passed ? 'pass' : 'fail')}</td></tr>`,
    )
    .join('');
  const keys = Object.keys(r.figures);
  const trend = history
    .slice(-15)
    .reverse()
    .map(
      (h) =>
        `<tr><td class="muted">${esc(h.started_at)}</td><td>${esc(h.profile)}</td><td>${esc(engineOf(h))}</td><td>${badge(h.passed ? 'pass' : 'fail')}</td>${keys.map((k) => `<td>${fmt(h.figures[k])}</td>`).join('')}</tr>`,
    )
    .join('');
  const body = `<nav><a href="../../index.html">← all reports</a><a href="result.json">result.json</a><a href="summary.json">summary.json</a>${hasDashboard ? '<a href="dashboard.html">k6 dashboard (time series)</a>' : ''}<a href="engine.log">engine.log</a><a href="junit.xml">junit.xml</a>${capacity ? `<a href="${esc(capacity.href)}">latest capacity report (${esc(capacity.text)})</a>` : ''}</nav>
<h1>Load: ${esc(r.scenario)} ${badge(r.passed ? 'pass' : 'fail')}</h1>
<p class="muted">${esc(r.started_at)} · profile ${esc(r.profile)} · target ${esc(r.target)} · ${(r.duration_ms / 1000).toFixed(1)} s · engine ${esc(engineOf(r))} · exit ${r.k6_exit_code}</p>
${r.tls_insecure ? '<p><strong>TLS certificate verification was off for this run (the profile says <code>tls.insecure</code>).</strong></p>' : ''}
<p>${r.headline.map(esc).join('<br>')}</p>
${nightly}
<h2>Thresholds (SLOs)</h2><table><tr><th>Metric</th><th>Threshold</th><th>Value</th><th>Result</th></tr>${thresholds}</table>
<h2>Latency (ms)</h2><table><tr><th>Metric</th><th>avg</th><th>med</th><th>p90</th><th>p95</th><th>p99</th><th>max</th></tr>${trends}</table>
<h2>Counts and rates</h2><table><tr><th>Metric</th><th>Count</th><th>Rate / value</th></tr>${counters}</table>
<h2>Trend (latest first)</h2><table><tr><th>Run</th><th>Profile</th><th>Engine</th><th>SLOs</th>${keys.map((k) => `<th>${esc(k)}</th>`).join('')}</tr>${trend}</table>`;
  return page(`dialtone load: ${r.scenario}`, body);
}
