// The load page's tables of k6's summary export, one per kind of metric, each read in its own form: trends as
// statistics, rates as a rate with the counts behind it, counters as counts and per second, gauges as value, min and
// max. A Rate's `passes` in the export counts its non-zero samples, whatever a non-zero sample means: for
// http_req_failed they are the failed requests, so the counts are named by what they count, never "passed".

import type { K6Metric, K6Summary } from '../core/summary.js';
import { esc } from '../report/html.js';

export type MetricKind = 'trend' | 'rate' | 'counter' | 'gauge';

const num = (m: K6Metric, k: string) => (typeof m[k] === 'number' ? (m[k] as number) : undefined);

/**
 * The kind of a metric from the statistics the summary export gives it.
 *
 * @example
 * kindOf({ passes: 0, fails: 525, value: 0 }); // 'rate'
 */
export function kindOf(m: K6Metric): MetricKind {
  if (['p(95)', 'med', 'avg'].some((k) => num(m, k) !== undefined)) return 'trend';
  if (num(m, 'passes') !== undefined || num(m, 'fails') !== undefined) return 'rate';
  if (num(m, 'count') !== undefined) return 'counter';
  return 'gauge';
}

/** What a Rate's non-zero samples are, by metric: a failed request, a passed check, a true sample. */
const TRUE_MEANS: Readonly<Record<string, { readonly yes: string; readonly of: string }>> = {
  http_req_failed: { yes: 'failed', of: 'requests' },
  checks: { yes: 'passed', of: 'checks' },
};

/**
 * A Rate read as a rate with its counts: `0.00 % (0 of 525 requests failed)`.
 *
 * @example
 * rateText('http_req_failed', { passes: 0, fails: 525, value: 0 }); // '0.00 % (0 of 525 requests failed)'
 * rateText('checks', { passes: 300, fails: 0, value: 1 }); // '100.00 % (300 of 300 checks passed)'
 */
export function rateText(name: string, m: K6Metric): string {
  const nonZero = num(m, 'passes') ?? 0;
  const total = nonZero + (num(m, 'fails') ?? 0);
  const rate = num(m, 'rate') ?? num(m, 'value') ?? (total ? nonZero / total : 0);
  const means = TRUE_MEANS[name.replace(/\{.*$/, '')] ?? { yes: 'true', of: 'samples' };
  return `${(rate * 100).toFixed(2)} % (${nonZero.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${means.of} ${means.yes})`;
}

const fmt = (v: number | undefined) => (v === undefined ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
const count = (v: number | undefined) => (v === undefined ? '—' : Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(2));
const TREND_STATS = ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'];

/**
 * The summary's metrics as four tables (trends, rates, counters, gauges), each sorted by name; a kind the run has none
 * of gets no table.
 *
 * @example
 * metricTables(summary); // '<h2>Trends (ms for times)</h2><table>…</table><h2>Rates</h2>…'
 */
export function metricTables(summary: K6Summary): string {
  const by = (kind: MetricKind) =>
    Object.entries(summary.metrics)
      .filter(([, m]) => kindOf(m) === kind)
      .sort(([a], [b]) => a.localeCompare(b));
  const name = (n: string) => `<td><code>${esc(n)}</code></td>`;
  const table = (title: string, head: readonly string[], rows: string[]) =>
    rows.length
      ? `<h2>${title}</h2><table class="${esc(title.split(' ')[0]?.toLowerCase() ?? '')}"><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr>${rows.join('')}</table>`
      : '';
  return [
    table(
      'Trends (ms for times)',
      ['Metric', 'avg', 'med', 'p90', 'p95', 'p99', 'max'],
      by('trend').map(([n, m]) => `<tr>${name(n)}${TREND_STATS.map((k) => `<td>${fmt(num(m, k))}</td>`).join('')}</tr>`),
    ),
    table(
      'Rates',
      ['Metric', 'Rate (non-zero samples of all)'],
      by('rate').map(([n, m]) => `<tr>${name(n)}<td>${esc(rateText(n, m))}</td></tr>`),
    ),
    table(
      'Counters',
      ['Metric', 'Count', 'Per second'],
      by('counter').map(([n, m]) => `<tr>${name(n)}<td>${count(num(m, 'count'))}</td><td>${fmt(num(m, 'rate'))}</td></tr>`),
    ),
    table(
      'Gauges',
      ['Metric', 'Last value', 'Min', 'Max'],
      by('gauge').map(([n, m]) => `<tr>${name(n)}<td>${count(num(m, 'value'))}</td><td>${count(num(m, 'min'))}</td><td>${count(num(m, 'max'))}</td></tr>`),
    ),
  ].join('\n');
}
