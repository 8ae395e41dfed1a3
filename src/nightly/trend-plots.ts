import type { TopLevelSpec } from 'vega-lite';
import type { K6Summary } from '../core/summary.js';
import { esc } from '../report/html.js';
import type { RunRecord } from './history.js';
import { BAND, changeText, driftLine, type MetricVerdict, tagLine, type Verdict } from './verdict.js';

const STATUS_COLOUR: Record<MetricVerdict['status'], string> = { improved: '#1a7f37', unchanged: '#57606a', regressed: '#cf222e', 'no baseline': '#bf8700' };
const MAX_PLOTS = 12;
/** Runs a trend plot needs before it is drawn. */
export const MIN_TREND_RUNS = 3;

/**
 * The headline metrics: those a threshold (an SLO) watches, at the statistic it watches, and the
 * throughput. Latencies are plotted at p95, as their thresholds judge them.
 */
export function headlineMetrics(verdict: Verdict, summary: K6Summary): MetricVerdict[] {
  const slo = (m: MetricVerdict) => {
    const [name] = m.metric.split(/ (?=p95$|rate$|count$|per_s$)/);
    return Object.keys(summary.metrics[name ?? '']?.thresholds ?? {}).length > 0 && !m.metric.endsWith(' p99');
  };
  // What moved first (that is what the reader came for), then the SLO metrics and the throughput.
  const moved = verdict.metrics.filter((m) => m.status === 'regressed' || m.status === 'improved');
  const rest = verdict.metrics.filter((m) => !moved.includes(m) && (m.metric === 'iterations per_s' || slo(m)));
  return [...moved, ...rest].slice(0, MAX_PLOTS);
}

/** When the metric's drift started, as the plot's subtitle says it. */
const driftText = (m: MetricVerdict) =>
  m.drift ? ` · drifted ${changeText(m.drift.from, m.drift.to, m.unit)} since ${m.drift.since.started_at?.slice(0, 10) ?? `run ${m.drift.since.run}`}` : '';

/**
 * The Vega-Lite spec of one metric over the nights: a line, tonight's point, the band it was judged by, and a dashed
 * rule at each change point of its level (the one where a drift started in the verdict's colour).
 *
 * @example
 * await renderSvg(trendSpec(verdict.metrics[0], nights));
 */
export function trendSpec(m: MetricVerdict, nights: readonly RunRecord[]): TopLevelSpec {
  const values = nights.flatMap((n, i) => {
    const v = n.metrics?.[m.metric]?.value;
    return v === undefined ? [] : [{ night: n.started_at, value: v, tonight: i === nights.length - 1 }];
  });
  // A change point without its night (a verdict judged without labels) is found by its place among the nights.
  const points = (m.changePoints ?? []).flatMap((c) => {
    const night = c.started_at ?? nights[c.run - 1]?.started_at;
    return night ? [{ night, drift: c.run === m.drift?.since.run }] : [];
  });
  const x = { field: 'night', type: 'temporal' as const, title: null, axis: { format: '%b %d %H:%M', labelAngle: -30 } };
  // The axis spans the nights and the median, not the band: a band many times wider than the data would flatten it.
  const seen = [...values.map((v) => v.value), ...(m.median === undefined ? [] : [m.median])];
  const log = (m.unit === 'ms' || m.unit === 'per_s') && seen.every((v) => v > 0);
  const lo = Math.min(...seen);
  const hi = Math.max(...seen);
  const domain = log ? [lo / 2, hi * 2] : [lo - (hi - lo || Math.abs(hi) || 1) * 0.2, hi + (hi - lo || Math.abs(hi) || 1) * 0.2];
  const y = {
    field: 'value',
    type: 'quantitative' as const,
    title: m.unit,
    scale: { type: log ? ('log' as const) : ('linear' as const), domain, clamp: true },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: m.metric, subtitle: `${m.status}${driftText(m)}`, subtitleColor: STATUS_COLOUR[m.status] },
    width: 320,
    height: 140,
    background: 'white',
    layer: [
      ...(m.low !== undefined && m.high !== undefined
        ? [
            {
              data: { values: [{ low: m.low, high: m.high }] },
              mark: { type: 'rect' as const, color: '#8c959f', opacity: 0.18, clip: true },
              encoding: { y: { field: 'low', type: 'quantitative' as const, scale: y.scale, title: m.unit }, y2: { field: 'high' } },
            },
          ]
        : []),
      ...points.map((p) => ({
        data: { values: [p] },
        mark: {
          type: 'rule' as const,
          strokeDash: [4, 3],
          strokeWidth: p.drift ? 2 : 1,
          color: p.drift ? STATUS_COLOUR[m.drift?.status ?? 'unchanged'] : '#8c959f',
        },
        encoding: { x },
      })),
      { data: { values }, mark: { type: 'line' as const, point: true, color: '#0969da' }, encoding: { x, y } },
      {
        data: { values: values.filter((v) => v.tonight) },
        mark: { type: 'point' as const, filled: true, size: 90, color: STATUS_COLOUR[m.status] },
        encoding: { x, y },
      },
    ],
  } as TopLevelSpec;
}

const fmt = (v: number | undefined, unit: MetricVerdict['unit']) =>
  v === undefined
    ? '—'
    : unit === 'ratio'
      ? `${(v * 100).toFixed(2)}%`
      : `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)}${unit === 'ms' ? ' ms' : unit === 'per_s' ? '/s' : ''}`;

/** The drift column: how far the level moved since the history began and since when, or how many change points it saw. */
const driftCell = (m: MetricVerdict) =>
  m.drift
    ? `${m.drift.status} ${changeText(m.drift.from, m.drift.to, m.unit)} since ${m.drift.since.started_at?.slice(0, 10) ?? ''} (run ${m.drift.since.run})`
    : m.changePoints?.length
      ? `${m.changePoints.length} change point${m.changePoints.length === 1 ? '' : 's'}, within the floor`
      : m.changePoints
        ? 'level steady'
        : '—';

/**
 * The page's verdict section: the overall verdict, every metric with its numbers, and an inline SVG
 * trend plot per headline metric (no script, no external file).
 *
 * @example
 * loadPage(result, summary, history, true, await nightlySection(verdict, nights, summary));
 */
export async function nightlySection(verdict: Verdict, nights: readonly RunRecord[], summary: K6Summary): Promise<string> {
  const overall = verdict.status === 'no baseline' ? 'no baseline' : verdict.status;
  const cls = { regressed: 'fail', improved: 'pass', unchanged: 'skip', 'no baseline': 'uncovered' }[overall];
  // A trend of one or two runs is a dot or a segment: one line says so instead of a row of empty plots.
  const shown = nights.length < MIN_TREND_RUNS ? [] : headlineMetrics(verdict, summary);
  // Vega loads only when there is something to draw: it is the heaviest import of a load run.
  const { renderSvg } = shown.length ? await import('../report/chart.js') : { renderSvg: async () => '' };
  const plots = await Promise.all(shown.map((m) => renderSvg(trendSpec(m, nights))));
  const rows = verdict.metrics
    .map(
      (m) =>
        `<tr><td><code>${esc(m.metric)}</code></td><td>${esc(fmt(m.value, m.unit))}</td><td>${esc(fmt(m.median, m.unit))}</td><td>${esc(`${fmt(m.low, m.unit)} … ${fmt(m.high, m.unit)}`)}</td><td>${esc(driftCell(m))}</td><td>${m.better} is better</td><td><span class="badge ${{ regressed: 'fail', improved: 'pass', unchanged: 'skip', 'no baseline': 'uncovered' }[m.status]}">${esc(m.status)}</span></td></tr>`,
    )
    .join('');
  const drifts = verdict.metrics.flatMap((m) => (m.drift?.status === 'regressed' ? [driftLine(m, verdict.historyRuns) ?? ''] : []));
  const lines = [...drifts, ...(verdict.tags ?? []).map((t) => tagLine(t, verdict.historyRuns))].map((l) => `<li>${esc(l.trim())}</li>`);
  return `<h2>Regression verdict <span class="badge ${cls}">${esc(overall)}</span></h2>
${
  verdict.status === 'no baseline'
    ? `<p class="muted">No baseline yet: ${verdict.baselineRuns} earlier run${verdict.baselineRuns === 1 ? '' : 's'} of this workload, ` +
      `${BAND.minBaseline} needed before a metric is judged.</p>`
    : `<p class="muted">Tonight against the last ${verdict.baselineRuns} runs of this workload: each metric's band is its baseline median ± 5 spreads (wider with few runs), at least 10% of the median. Drift: each metric's level over the history (${verdict.historyRuns ?? 0} runs), cut at its change points (E-divisive means, t-test); tonight's level worse than the first one by more than the band's floor is a regression, and so is one worse than at a pinned baseline (--baseline-tag).</p>`
}
${lines.length ? `<ul class="drift">${lines.join('')}</ul>\n` : ''}${
  nights.length < MIN_TREND_RUNS
    ? `<p class="muted trend-collapsed">Trend plots: ${nights.length} run${nights.length === 1 ? '' : 's'} of this workload so far; they are drawn ` +
      `from the ${MIN_TREND_RUNS}rd.</p>`
    : `<div class="plots" style="display:flex;flex-wrap:wrap;gap:8px">${plots.join('')}</div>`
}
<details><summary>All ${verdict.metrics.length} metrics</summary><table><tr><th>Metric</th><th>Tonight</th><th>Baseline median</th><th>Band</th><th>Drift</th><th>Direction</th><th>Verdict</th></tr>${rows}</table></details>`;
}
