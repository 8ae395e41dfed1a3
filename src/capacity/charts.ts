// The capacity page's plots as Vega-Lite specs: latency against offered rate with the SLO line,
// throughput against offered rate with the knee and the USL fit, the fit against concurrency, errors.
import type { TopLevelSpec } from 'vega-lite';
import type { CapacityResult } from './result.js';
import { USL_R2_TRUSTED, uslThroughput } from './usl.js';

const WIDTH = 520;
const HEIGHT = 260;
const q = (field: string, title: string, extra: object = {}) => ({ field, type: 'quantitative' as const, title, ...extra });

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
          x: q('rate', `offered rate (${r.unit}/s)`),
          y: q('ms', 'latency (ms)', { scale: { type: 'log' } }),
          color: { field: 'percentile', type: 'nominal', title: 'percentile' },
        },
      },
      {
        data: { values: [{ limit: slo.limit_ms, label: `SLO ${slo.percentile} ${slo.limit_ms} ms` }] },
        layer: [
          { mark: { type: 'rule', color: '#cf222e', strokeDash: [6, 4] }, encoding: { y: q('limit', '') } },
          { mark: { type: 'text', color: '#cf222e', align: 'left', dx: 4, dy: -6, x: 0 }, encoding: { y: q('limit', ''), text: { field: 'label' } } },
        ],
      },
    ],
  } as TopLevelSpec;
}

/** Throughput against offered rate: the measured points, y = x, the knee, the max sustainable rate and the USL fit. */
export function throughputChart(r: CapacityResult): TopLevelSpec {
  const a = r.analysis;
  const measured = r.steps.map((s) => ({ rate: s.offered_rate, x: s.throughput, series: 'measured' }));
  const fit = a.usl
    ? r.steps
        .filter((s) => s.concurrency !== undefined)
        .map((s) => ({
          rate: s.offered_rate,
          x: uslThroughput(a.usl as NonNullable<typeof a.usl>, s.concurrency as number),
          series: 'USL fit at measured concurrency',
        }))
    : [];
  const top = Math.max(...r.steps.map((s) => s.offered_rate), 0);
  const marks = [
    ...(a.knee ? [{ rate: a.knee.rate, label: 'knee' }] : []),
    ...(a.max_sustainable_rate !== null && a.limited_by === 'target' ? [{ rate: a.max_sustainable_rate, label: 'max sustainable' }] : []),
  ];
  return {
    width: WIDTH,
    height: HEIGHT,
    title: 'Throughput against offered rate',
    layer: [
      {
        data: { values: [...measured, ...fit].sort((p, n) => p.rate - n.rate) },
        mark: { type: 'line', point: true },
        encoding: {
          x: q('rate', `offered rate (${r.unit}/s)`),
          y: q('x', `throughput (${r.unit}/s)`),
          color: { field: 'series', type: 'nominal', title: null },
          strokeDash: { field: 'series', type: 'nominal', legend: null },
        },
      },
      {
        data: { values: [{ rate: 0 }, { rate: top }] },
        mark: { type: 'line', color: '#8c959f', strokeDash: [2, 3] },
        encoding: { x: q('rate', ''), y: q('rate', '') },
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
      f.r2 < USL_R2_TRUSTED ? ' (a poor fit: no prediction)' : f.peak_throughput ? `, peak ${f.peak_throughput.toFixed(2)} ${r.unit}/s` : ''
    }`,
    layer: [
      {
        data: { values: curve },
        mark: { type: 'line', color: '#8250df' },
        encoding: { x: q('n', 'concurrency N = X × R'), y: q('x', `throughput (${r.unit}/s)`) },
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
      x: q('rate', `offered rate (${r.unit}/s)`),
      y: q('share', 'share', { axis: { format: '.1%' } }),
      color: { field: 'series', type: 'nominal', title: null },
    },
  } as TopLevelSpec;
}
