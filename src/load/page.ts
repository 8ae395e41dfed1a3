import { type EngineId, engineName } from '../core/engine-version.js';
import type { K6Summary } from '../core/summary.js';
import type { ControlReading } from '../nightly/control.js';
import type { NightMetric } from '../nightly/metrics.js';
import { badge, esc, page, runBadge } from '../report/html.js';
import type { LoadConfig, SloEntry, ValueSource } from './config.js';
import type { Delivery } from './delivery.js';
import type { Interruption } from './interrupt.js';
import { metricTables } from './metric-tables.js';
import { restOfHeadline, verdictBlock } from './run-verdict.js';
import { sloSetName } from './slos.js';
import type { ThresholdResult } from './summary.js';

/** What one load run leaves behind in result.json, and one line of history.jsonl. */
export interface LoadResult {
  /** dialtone's version (package.json); absent in history records written before it was recorded. */
  readonly tool_version?: string;
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
  /** The name this run was pinned as a baseline under (`--baseline-tag`): later runs are also judged against it. */
  readonly baseline_tag?: string;
  /** `--control`: the control run's verdict read beside this one's (src/nightly/control.ts). */
  readonly control?: ControlReading;
  /** Whether the load asked for was delivered (src/load/delivery.ts); absent in runs from before it was judged. */
  readonly delivery?: Delivery;
  /** A stop signal cut the run short: what ran is reported, and the run is never judged against others or a baseline. */
  readonly interrupted?: Interruption;
  /** What the run expected of the platform and where each value came from; absent in runs from before profiles set it. */
  readonly expectations?: RunExpectations;
}

/** The SLO set a run was judged by and its workload's figures, each with its source (default, profile, flag, sized). */
export interface RunExpectations {
  /** `defaults`, or `profile NAME` when the profile set at least one SLO. */
  readonly slo_set: string;
  readonly slos: readonly SloEntry[];
  /** The executor's figures that matter (rate, duration, VUs) with where each came from. */
  readonly workload: Readonly<Record<string, { readonly value: string | number; readonly source: ValueSource }>>;
  /** The iteration time Little's law sized the VU pool for, in seconds (every step at its SLO bound). */
  readonly iteration_s?: number | undefined;
  /** The conversation scripts the scenario played (the profile's `dialogues`), when it played any. */
  readonly dialogues?: { readonly file: string; readonly count: number } | undefined;
}

/**
 * The expectations of a run from its LoadConfig's provenance and shape.
 *
 * @example
 * expectationsOf('staging-us', kit.config); // { slo_set: 'profile staging-us', slos: [...], workload: { rate: { value: 5, source: 'default' }, … } }
 */
export function expectationsOf(target: string, config: Pick<LoadConfig, 'provenance' | 'shape' | 'dialogues'>): RunExpectations {
  const shape = config.shape as unknown as Record<string, string | number>;
  const workload = Object.fromEntries(
    Object.entries(config.provenance.shape).flatMap(([field, source]) => (shape[field] === undefined ? [] : [[field, { value: shape[field], source }]])),
  );
  return {
    slo_set: sloSetName(target, config.provenance.slos),
    slos: config.provenance.slos,
    workload,
    iteration_s: config.provenance.iterationS,
    ...(config.dialogues ? { dialogues: config.dialogues } : {}),
  };
}

/** The page's line on what the run expected: the SLO set, and the workload's figures with their sources. */
function expectationsLine(e: RunExpectations | undefined): string {
  if (!e) return '';
  const own = e.slos.filter((s) => s.source === 'profile').length;
  const figures = Object.entries(e.workload).map(([k, v]) => `${k} ${v.value} (${v.source})`);
  const sized = e.iteration_s === undefined ? '' : `; the VU pool sized by Little's law for a ${e.iteration_s.toFixed(1)} s iteration at the SLOs`;
  const scripts = e.dialogues ? ` · conversation scripts: ${esc(e.dialogues.file)} (${e.dialogues.count} dialogues)` : '';
  return (
    `<p class="muted">SLOs: ${esc(e.slo_set)} (${own} from the profile, ${e.slos.length - own} defaults) · workload: ` +
    `${esc(figures.join(', '))}${esc(sized)}${scripts}</p>`
  );
}

/** The engine a run was on, as the page names it (a run recorded before engines were named was on k6). */
const engineOf = (r: LoadResult) => (r.engine ? engineName(r.engine) : 'k6 (version not recorded)');

const fmt = (v: number | undefined, unit = '') => (v === undefined ? '—' : `${v >= 100 ? v.toFixed(0) : v.toFixed(2)}${unit}`);

/**
 * The load report page of one run: the verdict first (pass or fail, each failed SLO, the load delivered against asked),
 * then the regression section (`nightly`), the run over time (`timeline`), the tables, and the earlier runs.
 */
export function loadPage(
  r: LoadResult,
  summary: K6Summary,
  history: readonly LoadResult[],
  hasDashboard: boolean,
  nightly = '',
  capacity?: { href: string; text: string },
  timeline = '',
): string {
  const thresholds = r.thresholds
    .map(
      (t) =>
        `<tr><td><code>${esc(t.metric)}</code></td><td><code>${esc(t.expression)}</code></td><td>${esc(t.source ?? '—')}</td><td>${fmt(t.value)}</td><td>${badge(t.passed ? 'pass' : 'fail')}</td></tr>`,
    )
    .join('');
  const keys = Object.keys(r.figures);
  const trend = history
    .slice(-15)
    .reverse()
    .map(
      (h) =>
        `<tr><td class="muted">${esc(h.started_at)}</td><td>${esc(h.profile)}</td><td>${esc(engineOf(h))}</td><td>${runBadge(h)}</td>${keys.map((k) => `<td>${fmt(h.figures[k])}</td>`).join('')}</tr>`,
    )
    .join('');
  const body = `<nav><a href="../../index.html">← all reports</a><a href="result.json">result.json</a><a href="summary.json">summary.json</a>${hasDashboard ? '<a href="dashboard.html">k6 dashboard (time series)</a>' : ''}<a href="engine.log">engine.log</a><a href="junit.xml">junit.xml</a>${capacity ? `<a href="${esc(capacity.href)}">latest capacity report (${esc(capacity.text)})</a>` : ''}</nav>
<h1>Load: ${esc(r.scenario)} ${runBadge(r)}</h1>
<p class="muted">${esc(r.started_at)} · profile ${esc(r.profile)} · target ${esc(r.target)} · ${(r.duration_ms / 1000).toFixed(1)} s · engine ${esc(engineOf(r))} · exit ${r.k6_exit_code}</p>
${verdictBlock(r)}
${r.tls_insecure ? '<p><strong>TLS certificate verification was off for this run (the profile says <code>tls.insecure</code>).</strong></p>' : ''}
<p>${restOfHeadline(r).map(esc).join('<br>')}</p>
${nightly}
${timeline}
<h2>Thresholds (SLOs)${r.interrupted ? ', as they stood when the run was interrupted' : ''}</h2>${expectationsLine(r.expectations)}<table><tr><th>Metric</th><th>Threshold</th><th>Source</th><th>Value</th><th>Result</th></tr>${thresholds}</table>
${metricTables(summary)}
<h2>Trend (latest first)</h2><table><tr><th>Run</th><th>Profile</th><th>Engine</th><th>SLOs</th>${keys.map((k) => `<th>${esc(k)}</th>`).join('')}</tr>${trend}</table>`;
  return page(`dialtone load: ${r.scenario}`, body);
}
