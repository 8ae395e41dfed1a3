// The plots of the run over time (src/load/timeline.ts), as Vega-Lite specs drawn to inline SVG by src/report/chart.ts:
// throughput, active VUs, error rate and the other rates an SLO judges, latency percentiles per operation, and the
// latency distribution. Every SLO the plot's series is judged by is drawn as a dashed line, and the intervals whose own
// value breached it are shaded. Each plot encodes its series by colour, so each has a legend, even of one series.
import type { TopLevelSpec } from 'vega-lite';
import { esc } from '../report/html.js';
import { ERROR_METRIC, LATENCY_METRIC, type SloSeries, sloSeries, type Timeline } from './timeline.js';

/** A stretch of the run to mark on every plot over time (the gate's run under load), in seconds from its start. */
export interface Span {
  readonly from: number;
  readonly to: number;
  readonly label: string;
}

/** An SLO as a run's thresholds give it: a metric key and its expressions. */
export interface SloKey {
  readonly key: string;
  readonly expressions: readonly string[];
}

const WIDTH = 470;
const HEIGHT = 170;
const BREACH = '#cf222e';
const SPAN = '#8c959f';
const SLO_LINE = '#57606a';
const PALETTE = ['#0969da', '#bf8700', '#8250df', '#1a7f37', '#bc4c00', '#1b7c83', '#d1242f', '#6e7781'];

interface Row {
  readonly t: number;
  readonly value: number;
  readonly series: string;
}

/** The x axis of every plot over time: seconds from the run's first sample. */
const X = { field: 't', type: 'quantitative' as const, title: 'seconds since the run started', scale: { nice: false } };

/** How an SLO is named in a legend: `SLO p(95)<500`. */
const sloName = (s: SloSeries) => `SLO ${s.expression.source.replace(/\s+/g, '')}`;
const BREACH_NAME = 'SLO breached in the interval';

/**
 * A plot over time: one line per series, each SLO a dashed rule at its bound, each breach a shaded span; one legend
 * (colour) naming all of them.
 */
function overTime(o: {
  title: string;
  subtitle?: string;
  rows: readonly Row[];
  slos: readonly SloSeries[];
  end: number;
  y: { title: string; log?: boolean; format?: string; zero?: boolean };
  interpolate?: 'linear' | 'step-after';
  spans?: readonly Span[];
}): TopLevelSpec {
  const spans = (o.spans ?? []).map((p) => ({ from: p.from, to: p.to, series: p.label }));
  const names = [...new Set(o.rows.map((r) => r.series))];
  const rules = [...new Map(o.slos.map((s) => [sloName(s), { series: sloName(s), bound: s.expression.value }])).values()];
  const breaches = o.slos.flatMap((s) => s.breaches.map((b) => ({ ...b, series: BREACH_NAME })));
  const spanNames = [...new Set(spans.map((p) => p.series))];
  const domain = [...names, ...rules.map((r) => r.series), ...(breaches.length ? [BREACH_NAME] : []), ...spanNames];
  const range = [
    ...names.map((_, i) => PALETTE[i % PALETTE.length] as string),
    ...rules.map(() => SLO_LINE),
    ...(breaches.length ? [BREACH] : []),
    ...spanNames.map(() => SPAN),
  ];
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain, range },
    legend: {
      orient: 'bottom' as const,
      direction: 'horizontal' as const,
      columns: 3,
      labelLimit: 260,
      symbolType: 'stroke',
      symbolOpacity: 1,
      symbolStrokeWidth: 2,
    },
  };
  const positive = o.rows.map((r) => r.value).filter((v) => v > 0);
  const log = o.y.log === true && positive.length > 0;
  const lows = [...positive, ...rules.map((r) => r.bound).filter((b) => b > 0)];
  const scale = log ? { type: 'log' as const, domain: [Math.min(...lows) / 1.5, Math.max(...lows) * 1.5], clamp: true } : { zero: o.y.zero ?? true };
  const y = { field: 'value', type: 'quantitative' as const, title: o.y.title, scale, axis: o.y.format ? { format: o.y.format } : {} };
  const x = { ...X, scale: { ...X.scale, domain: [0, Math.max(o.end, 1)] } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: o.title, ...(o.subtitle ? { subtitle: o.subtitle } : {}), anchor: 'start' },
    width: WIDTH,
    height: HEIGHT,
    background: 'white',
    layer: [
      {
        data: { values: o.rows.filter((r) => !log || r.value > 0) },
        mark: { type: 'line' as const, interpolate: o.interpolate ?? 'linear', strokeWidth: 1.8, point: o.rows.length < 40 },
        encoding: { x, y, color },
      },
      // After the lines, so the legend takes its symbols from them; faint enough that the lines show through.
      ...(breaches.length
        ? [{ data: { values: breaches }, mark: { type: 'rect' as const, opacity: 0.14 }, encoding: { x: { ...x, field: 'from' }, x2: { field: 'to' }, color } }]
        : []),
      ...(spans.length
        ? [{ data: { values: spans }, mark: { type: 'rect' as const, opacity: 0.16 }, encoding: { x: { ...x, field: 'from' }, x2: { field: 'to' }, color } }]
        : []),
      ...(rules.length
        ? [
            {
              data: { values: rules.map((r) => ({ ...r, value: r.bound })) },
              mark: { type: 'rule' as const, strokeDash: [6, 4], strokeWidth: 1.5 },
              encoding: { y, color },
            },
          ]
        : []),
    ],
  } as TopLevelSpec;
}

/** The short name of a series key: `chat.respond` for `http_req_duration{op:chat.respond}`. */
const opOf = (key: string) => /\{op:([^,}]+)\}$/.exec(key)?.[1] ?? key;

/** The plots' shared facts: where the run ends, its SLO series. */
const endOf = (tl: Timeline) => (tl.points.at(-1)?.t ?? 0) + tl.interval_s;

/**
 * The Vega-Lite specs of a run's timeline, in the page's order: throughput, VUs, then every plot with a breach, then the
 * others: error rate, the other rates an SLO judges, latency per operation (and any other trend an SLO judges), the
 * latency distribution.
 *
 * @example
 * const specs = timelineSpecs(timeline, [{ key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<500'] }]);
 */
export function timelineSpecs(tl: Timeline, slos: readonly SloKey[], spans: readonly Span[] = []): { name: string; spec: TopLevelSpec }[] {
  const end = endOf(tl);
  const series = sloSeries(tl, slos);
  const per = tl.interval_s === 1 ? 'per second' : `per second, over ${tl.interval_s} s intervals`;
  const out: { name: string; spec: TopLevelSpec }[] = [];
  out.push({
    name: 'throughput',
    spec: overTime({
      spans,
      title: 'Throughput',
      subtitle: per,
      end,
      slos: [],
      y: { title: 'per second' },
      rows: tl.points.flatMap((p) => [
        { t: p.t, value: p.requests_per_s, series: 'requests/s' },
        { t: p.t, value: p.iterations_per_s, series: 'iterations/s' },
        { t: p.t, value: p.dropped_per_s, series: 'dropped iterations/s' },
      ]),
    }),
  });
  out.push({
    name: 'vus',
    spec: overTime({
      spans,
      title: 'Active VUs',
      subtitle: 'the most at once in each interval',
      end,
      slos: [],
      y: { title: 'VUs' },
      interpolate: 'step-after',
      rows: tl.points.flatMap((p) => (p.vus === null ? [] : [{ t: p.t, value: p.vus, series: 'active VUs' }])),
    }),
  });
  out.push({
    name: 'errors',
    spec: overTime({
      spans,
      title: 'Error rate',
      subtitle: `${ERROR_METRIC}: the share of requests that failed in each interval`,
      end,
      slos: series.filter((s) => s.key === ERROR_METRIC),
      y: { title: 'failed requests', format: '.1%' },
      rows: tl.points.flatMap((p) => (p.rates[ERROR_METRIC] === undefined ? [] : [{ t: p.t, value: p.rates[ERROR_METRIC] as number, series: ERROR_METRIC }])),
    }),
  });
  const rateKeys = [...new Set(series.filter((s) => s.kind === 'rate' && s.key !== ERROR_METRIC).map((s) => s.key))];
  if (rateKeys.length)
    out.push({
      name: 'rates',
      spec: overTime({
        spans,
        title: 'Rates the SLOs judge',
        subtitle: 'the share of true samples in each interval',
        end,
        slos: series.filter((s) => rateKeys.includes(s.key)),
        y: { title: 'share true', format: '.1%', zero: false },
        rows: tl.points.flatMap((p) => rateKeys.flatMap((k) => (p.rates[k] === undefined ? [] : [{ t: p.t, value: p.rates[k] as number, series: k }]))),
      }),
    });
  const latency = Object.keys(tl.distribution).sort();
  const trendKeys = [...latency, ...new Set(series.filter((s) => s.kind === 'trend' && !latency.includes(s.key)).map((s) => s.key))];
  for (const key of trendKeys) {
    const slosHere = series.filter((s) => s.key === key);
    const stats = [...new Set(['p(50)', 'p(95)', 'p(99)', ...slosHere.map((s) => s.expression.aggregation)])];
    out.push({
      name: `latency ${key}`,
      spec: overTime({
        spans,
        title: key.startsWith(`${LATENCY_METRIC}{op:`) ? `Latency of ${opOf(key)}` : `Latency: ${key}`,
        subtitle: `${key} in each interval`,
        end,
        slos: slosHere,
        y: { title: 'ms (log scale)', log: true },
        rows: tl.points.flatMap((p) => {
          const tp = p.trends[key];
          return tp
            ? stats.flatMap((s) =>
                tp.stats[s] === undefined ? [] : [{ t: p.t, value: tp.stats[s] as number, series: s === 'p(50)' ? 'p50' : s.replace(/[()]/g, '') }],
              )
            : [];
        }),
      }),
    });
  }
  if (latency.length) out.push({ name: 'distribution', spec: distributionSpec(tl, series) });
  // A plot with a breach comes right after the load it ran under, so what failed is on the first screen of plots.
  const breached = (o: { spec: TopLevelSpec }) => layersOf(o.spec).some((l) => l.data?.values?.[0]?.series === BREACH_NAME);
  const [throughput, vus, ...rest] = out;
  return [...(throughput ? [throughput] : []), ...(vus ? [vus] : []), ...rest.filter(breached), ...rest.filter((o) => !breached(o))];
}

type LayerView = { data?: { values?: { series?: string }[] } };
const layersOf = (spec: TopLevelSpec) => ((spec as { layer?: LayerView[] }).layer ?? []) as LayerView[];

/** The whole run's latency per operation: share of requests per log-spaced bin, each latency SLO a vertical rule. */
function distributionSpec(tl: Timeline, series: readonly SloSeries[]): TopLevelSpec {
  const ops = Object.keys(tl.distribution).sort();
  const rows = ops.flatMap((k) => (tl.distribution[k] ?? []).filter((b) => b.share > 0).map((b) => ({ ms: b.ms, share: b.share, series: opOf(k) })));
  // One rule per bound: operations that share an SLO share its line.
  const bounds = new Map<string, { ms: number; ops: string[] }>();
  for (const s of series.filter((x) => x.kind === 'trend' && ops.includes(x.key))) {
    const b = bounds.get(sloName(s)) ?? { ms: s.expression.value, ops: [] };
    b.ops.push(opOf(s.key));
    bounds.set(sloName(s), b);
  }
  const rules = [...bounds].map(([name, b]) => ({
    ms: b.ms,
    series: `${name} (${b.ops.length === ops.length && ops.length > 1 ? 'every operation' : b.ops.join(', ')})`,
  }));
  const domain = [...ops.map(opOf), ...rules.map((r) => r.series)];
  const range = [...ops.map((_, i) => PALETTE[i % PALETTE.length] as string), ...rules.map(() => SLO_LINE)];
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain, range },
    legend: { orient: 'bottom' as const, columns: 2, labelLimit: 320 },
  };
  const all = [...rows.map((r) => r.ms), ...rules.map((r) => r.ms)];
  const x = {
    field: 'ms',
    type: 'quantitative' as const,
    title: 'latency, ms (log scale)',
    scale: { type: 'log' as const, domain: [Math.min(...all) / 1.3, Math.max(...all) * 1.3] },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Latency distribution', subtitle: `${LATENCY_METRIC} over the whole run, per operation`, anchor: 'start' },
    width: WIDTH,
    height: HEIGHT,
    background: 'white',
    layer: [
      {
        data: { values: rows },
        mark: { type: 'line' as const, interpolate: 'monotone', point: true, strokeWidth: 1.8 },
        encoding: { x, y: { field: 'share', type: 'quantitative' as const, title: 'share of requests', axis: { format: '.0%' } }, color },
      },
      ...(rules.length ? [{ data: { values: rules }, mark: { type: 'rule' as const, strokeDash: [6, 4], strokeWidth: 1.5 }, encoding: { x, color } }] : []),
    ],
  } as TopLevelSpec;
}

/**
 * The thresholds of a run as SLO keys: each metric key with its expressions.
 *
 * @example
 * sloKeysOf(result.thresholds); // [{ key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<500'] }, …]
 */
export function sloKeysOf(thresholds: readonly { readonly metric: string; readonly expression: string }[]): SloKey[] {
  const by = new Map<string, string[]>();
  for (const t of thresholds) by.set(t.metric, [...(by.get(t.metric) ?? []), t.expression]);
  return [...by].map(([key, expressions]) => ({ key, expressions }));
}

/**
 * The page's section on the run over time: one inline SVG per plot (no script, nothing fetched), or one line saying why
 * there is none.
 *
 * @example
 * loadPage(result, summary, history, false, nightly, undefined, await timelineSection(timeline, sloKeysOf(result.thresholds)));
 */
export async function timelineSection(
  tl: Timeline | undefined,
  slos: readonly SloKey[],
  missing = 'this run kept no samples to draw it from',
  spans: readonly Span[] = [],
  heading = 'The run over time',
): Promise<string> {
  if (!tl || tl.points.length === 0) return `<h2>${esc(heading)}</h2><p class="muted">Not drawn: ${esc(missing)}.</p>`;
  const { renderSvg } = await import('../report/chart.js');
  const specs = timelineSpecs(tl, slos, spans);
  const svgs = await Promise.all(specs.map(async (s) => `<figure class="plot" data-plot="${esc(s.name)}">${await renderSvg(s.spec)}</figure>`));
  const breached = sloSeries(tl, slos).filter((s) => s.breaches.length > 0);
  const note = breached.length
    ? `Shaded: the intervals in which ${breached.map((s) => `${s.key} ${s.expression.source}`).join(', ')} did not hold.`
    : 'No SLO drawn here was breached in any interval.';
  return (
    `<h2>${esc(heading)}</h2><p class="muted">From ${esc(tl.source ?? "the run's own samples")}, from ${esc(tl.started_at)}, ` +
    `in ${tl.interval_s} s intervals. ${esc(note)}</p>
<div class="timeline" style="display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:12px">${svgs.join('')}</div>`
  );
}
