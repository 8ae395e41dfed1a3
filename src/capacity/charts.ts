// The capacity page's plots as Vega-Lite specs: latency against offered rate with the SLO line,
// throughput against offered rate with the knee and the USL fit, the fit against concurrency, errors.
import type { TopLevelSpec } from 'vega-lite';
import { type CapacityResult, perOf } from './result.js';
import { USL_R2_TRUSTED, uslThroughput } from './usl.js';

const WIDTH = 520;
const HEIGHT = 260;
const q = (field: string, title: string, extra: object = {}) => ({ field, type: 'quantitative' as const, title, ...extra });

/** A dashed red horizontal rule at `y`, labelled at its left end: the SLO on the latency plot, the capacity under the day. */
function limitRule(y: number, label: string) {
  return {
    data: { values: [{ y, label }] },
    layer: [
      { mark: { type: 'rule', color: '#cf222e', strokeDash: [6, 4] }, encoding: { y: q('y', '') } },
      { mark: { type: 'text', color: '#cf222e', align: 'left', dx: 4, dy: -6, x: 0 }, encoding: { y: q('y', ''), text: { field: 'label' } } },
    ],
  };
}

/** Latency percentiles of the SLO metric against the offered rate, with the SLO as a rule. */
export function latencyChart(r: CapacityResult): TopLevelSpec | undefined {
  const slo = r.analysis.latency_slo;
  if (!slo) return undefined;
  const values = r.steps.flatMap((s) => {
    const l = s.latency[slo.metric];
    return l ? (['p50', 'p95', 'p99'] as const).flatMap((p) => (l[p] === undefined ? [] : [{ rate: s.offered_rate, percentile: p, ms: l[p] as number }])) : [];
  });
  return {
    width: WIDTH,
    height: HEIGHT,
    title: `${slo.metric}: latency against offered rate (SLO ${slo.percentile} < ${slo.limit_ms} ms)`,
    layer: [
      {
        data: { values },
        mark: { type: 'line', point: true },
        encoding: {
          x: q('rate', `offered rate (${perOf(r)})`),
          y: q('ms', 'latency (ms)', { scale: { type: 'log' } }),
          color: { field: 'percentile', type: 'nominal', title: 'percentile' },
        },
      },
      limitRule(slo.limit_ms, `SLO ${slo.percentile} ${slo.limit_ms} ms`),
    ],
  } as TopLevelSpec;
}

/** The throughput plot's series, in its legend's order: what was measured, the fit, and the line a target that keeps up is on. */
const THROUGHPUT_SERIES = { measured: 'measured', fit: 'USL fit at measured concurrency', keepingUp: 'throughput = offered (keeping up)' } as const;

/**
 * Throughput against offered rate: the measured points, the USL fit, y = x (keeping up), the knee and the max
 * sustainable rate; every line is named in the legend and every rule by its label.
 */
export function throughputChart(r: CapacityResult): TopLevelSpec {
  const a = r.analysis;
  const measured = r.steps.map((s) => ({ rate: s.offered_rate, x: s.throughput, series: THROUGHPUT_SERIES.measured }));
  const fit = a.usl
    ? r.steps
        .filter((s) => s.concurrency !== undefined)
        .map((s) => ({
          rate: s.offered_rate,
          x: uslThroughput(a.usl as NonNullable<typeof a.usl>, s.concurrency as number),
          series: THROUGHPUT_SERIES.fit,
        }))
    : [];
  const top = Math.max(...r.steps.map((s) => s.offered_rate), 0);
  const keepingUp = [0, top].map((rate) => ({ rate, x: rate, series: THROUGHPUT_SERIES.keepingUp }));
  const marks = [
    ...(a.knee ? [{ rate: a.knee.rate, label: 'knee' }] : []),
    ...(a.max_sustainable_rate !== null && a.limited_by === 'target' ? [{ rate: a.max_sustainable_rate, label: 'max sustainable' }] : []),
  ];
  // One scale for every line, so the legend names them all, y = x included.
  const series = {
    color: {
      field: 'series',
      type: 'nominal',
      title: null,
      scale: { domain: Object.values(THROUGHPUT_SERIES), range: ['#0969da', '#bc4c00', '#8c959f'] },
    },
    // The same field as color, so Vega-Lite merges the two into one legend (a `legend: null` here hid both).
    strokeDash: {
      field: 'series',
      type: 'nominal',
      title: null,
      scale: {
        domain: Object.values(THROUGHPUT_SERIES),
        range: [
          [1, 0],
          [6, 3],
          [2, 3],
        ],
      },
    },
  };
  return {
    width: WIDTH,
    height: HEIGHT,
    title: 'Throughput against offered rate',
    layer: [
      {
        data: { values: [...measured, ...fit].sort((p, n) => p.rate - n.rate) },
        mark: { type: 'line', point: true },
        encoding: { x: q('rate', `offered rate (${perOf(r)})`), y: q('x', `throughput (${perOf(r)})`), ...series },
      },
      {
        data: { values: keepingUp },
        mark: { type: 'line' },
        encoding: { x: q('rate', ''), y: q('x', ''), ...series },
      },
      ...(marks.length
        ? [
            {
              data: { values: marks },
              layer: [
                { mark: { type: 'rule', strokeDash: [6, 4] }, encoding: { x: q('rate', ''), color: { value: '#8250df' } } },
                { mark: { type: 'text', angle: 270, dx: -40, dy: -6, y: 0, align: 'right' }, encoding: { x: q('rate', ''), text: { field: 'label' } } },
              ],
            },
          ]
        : []),
    ],
  } as TopLevelSpec;
}

/** Throughput against concurrency (Little's law) with the USL curve and its predicted peak. */
export function uslChart(r: CapacityResult): TopLevelSpec | undefined {
  const f = r.analysis.usl;
  if (!f) return undefined;
  const pts = r.steps.filter((s) => s.concurrency !== undefined).map((s) => ({ n: s.concurrency as number, x: s.throughput }));
  const maxN = Math.max(...pts.map((p) => p.n), f.peak_concurrency ?? 0) * 1.1;
  const curve = Array.from({ length: 60 }, (_, i) => {
    const n = (maxN * (i + 1)) / 60;
    return { n, x: uslThroughput(f, n) };
  });
  return {
    width: WIDTH,
    height: HEIGHT,
    title: `USL fit: σ ${f.sigma.toFixed(4)}, κ ${f.kappa.toFixed(5)}, R² ${f.r2.toFixed(3)}${
      f.r2 < USL_R2_TRUSTED ? ' (a poor fit: no prediction)' : f.peak_throughput ? `, peak ${f.peak_throughput.toFixed(2)} ${perOf(r)}` : ''
    }`,
    layer: [
      {
        data: { values: curve },
        mark: { type: 'line', color: '#8250df' },
        encoding: { x: q('n', 'concurrency N = X × R'), y: q('x', `throughput (${perOf(r)})`) },
      },
      { data: { values: pts }, mark: { type: 'point', filled: true, color: '#0969da' }, encoding: { x: q('n', ''), y: q('x', '') } },
    ],
  } as TopLevelSpec;
}

/** Error rate and dropped share against offered rate. */
export function errorChart(r: CapacityResult): TopLevelSpec {
  const values = r.steps.flatMap((s) => [
    { rate: s.offered_rate, share: s.error_rate, series: 'HTTP error rate' },
    { rate: s.offered_rate, share: s.dropped_share, series: 'dropped iterations' },
  ]);
  return {
    width: WIDTH,
    height: 180,
    title: 'Errors against offered rate',
    data: { values: values.sort((a, b) => a.rate - b.rate) },
    mark: { type: 'line', point: true },
    encoding: {
      x: q('rate', `offered rate (${perOf(r)})`),
      y: q('share', 'share', { axis: { format: '.1%' } }),
      color: { field: 'series', type: 'nominal', title: null },
    },
  } as TopLevelSpec;
}

/**
 * The observed day under the capacity: the platform's mean arrivals per hour of day (a traffic model's, `--traffic`)
 * as a rate, the capacity found as a rule and the boundary's interval as a band; undefined without a traffic model.
 */
export function dailyCurveChart(r: CapacityResult): TopLevelSpec | undefined {
  const h = r.headroom;
  const cap = r.analysis.max_sustainable_rate;
  if (!h || cap === null) return undefined;
  const values = h.per_hour_of_day.map((perHour, hour) => ({ hour, rate: perHour / 3600 }));
  const band = r.analysis.interval ? [{ low: r.analysis.interval.low, high: r.analysis.interval.high }] : [];
  return {
    width: WIDTH,
    height: HEIGHT,
    title: `the observed day (${h.file}) under what holds the SLOs`,
    layer: [
      ...(band.length
        ? [{ data: { values: band }, mark: { type: 'rect', color: '#cf222e', opacity: 0.12 }, encoding: { y: q('low', ''), y2: { field: 'high' } } }]
        : []),
      {
        data: { values },
        mark: { type: 'area', line: true, opacity: 0.5 },
        encoding: { x: q('hour', 'hour of day (UTC)', { scale: { domain: [0, 23] } }), y: q('rate', `arrivals (${r.unit}/s)`) },
      },
      limitRule(cap, `holds the SLOs: ${cap.toPrecision(3)} ${r.unit}/s`),
    ],
  } as TopLevelSpec;
}

/** A date `days` after an ISO date (YYYY-MM-DD). */
const dayAfter = (date: string, days: number) => new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The daily peaks the growth was fitted to, the fitted line carried on to the date it reaches the capacity (or to the
 * horizon), the capacity as a rule and the date's range as a band; undefined without a growth fitted.
 */
export function growthChart(r: CapacityResult): TopLevelSpec | undefined {
  const h = r.headroom;
  const g = h?.growth;
  if (!h || !g?.shape || !g.first_day || !g.last_day || g.fitted_last === undefined) return undefined;
  const left = new Set(g.left_out);
  const peaks = (h.daily_peaks ?? []).filter((p) => !left.has(p.date)).map((p) => ({ date: p.date, rate: p.per_second }));
  const last = g.last_day;
  const span = (Date.parse(last) - Date.parse(g.first_day)) / 86_400_000;
  const end = g.status === 'reaches' || g.status === 'beyond' ? (g.reaches_to ?? g.horizon ?? last) : last;
  const ahead = (Date.parse(end) - Date.parse(last)) / 86_400_000;
  // The fit as the growth describes it from the last day: a straight rise a day, or a share a day compounded.
  const at = (d: number) =>
    g.shape === 'compound' ? (g.fitted_last as number) * (1 + (g.share_per_day ?? 0)) ** d : (g.fitted_last as number) + (g.per_day ?? 0) * d;
  const steps = 40;
  const line = Array.from({ length: steps + 1 }, (_, i) => -span + ((span + ahead) * i) / steps).map((d) => ({ date: dayAfter(last, d), rate: at(d) }));
  const band = g.reaches_from ? [{ from: g.reaches_from, to: g.reaches_to ?? g.horizon }] : [];
  const x = { field: 'date', type: 'temporal' as const, title: 'day (UTC)' };
  return {
    width: WIDTH,
    height: HEIGHT,
    title: `daily peaks (${h.file}) and their growth against what holds the SLOs`,
    layer: [
      ...(band.length
        ? [{ data: { values: band }, mark: { type: 'rect', color: '#cf222e', opacity: 0.12 }, encoding: { x: { ...x, field: 'from' }, x2: { field: 'to' } } }]
        : []),
      { data: { values: line }, mark: { type: 'line', strokeDash: [4, 3] }, encoding: { x, y: q('rate', `busiest hour (${r.unit}/s)`) } },
      { data: { values: peaks }, mark: { type: 'point', filled: true }, encoding: { x, y: q('rate', `busiest hour (${r.unit}/s)`) } },
      limitRule(g.capacity, `holds the SLOs: ${g.capacity.toPrecision(3)} ${r.unit}/s`),
    ],
  } as TopLevelSpec;
}
