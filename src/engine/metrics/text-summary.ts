// The end-of-test summary on stdout, laid out like k6's compact summary (/results-output/end-of-test/): the
// thresholds with ✓/✗ and the value judged, then the checks, then the metrics by section.

import { formatDuration } from '../../core/duration.js';
import { HTTP_PHASES } from '../modules/http/metrics.js';
import type { CheckCount, GroupNode } from './groups.js';
import { DEFAULT_TREND_STATS } from './sink.js';
import type { MetricEntry, MetricStore } from './store.js';
import type { ThresholdVerdict } from './thresholds.js';

export interface TextSummaryOptions {
  readonly summaryTrendStats?: readonly string[];
  /** `summaryTimeUnit`: every time in this unit; default: the unit that reads best per value, as k6 does. */
  readonly summaryTimeUnit?: 's' | 'ms' | 'us';
  /** `full` also shows the metrics compact hides (http_req_blocked, …, the HTTP timing phases). */
  readonly mode?: 'compact' | 'full';
  readonly noColor?: boolean;
  /** The final verdicts; default: the store judges its thresholds now. */
  readonly verdicts?: readonly ThresholdVerdict[];
}

/** Metrics compact mode leaves out: the HTTP timing phases and the group timings (shown by `full`). */
const COMPACT_HIDDEN = new Set([...HTTP_PHASES, 'group_duration']);

const SECTIONS: readonly [string, (name: string) => boolean][] = [
  ['HTTP', (n) => n.startsWith('http_')],
  ['EXECUTION', (n) => ['iteration_duration', 'iterations', 'dropped_iterations', 'vus', 'vus_max', 'group_duration'].includes(n)],
  ['NETWORK', (n) => n === 'data_received' || n === 'data_sent'],
  ['WEBSOCKET', (n) => n.startsWith('ws_')],
  ['GRPC', (n) => n.startsWith('grpc_')],
  ['BROWSER', (n) => n.startsWith('browser_')],
];

/**
 * Renders the end-of-test summary. Sections in k6's order: CUSTOM (the script's own metrics), HTTP, EXECUTION,
 * NETWORK, then WEBSOCKET, GRPC, BROWSER when used.
 *
 * @example
 * process.stdout.write(textSummary(store, { noColor: !process.stdout.isTTY }));
 */
export function textSummary(store: MetricStore, options: TextSummaryOptions = {}): string {
  const stats = options.summaryTrendStats ?? DEFAULT_TREND_STATS;
  const verdicts = options.verdicts ?? store.judge();
  const seconds = store.elapsedMs() / 1000;
  const paint = (code: number, s: string) => (options.noColor ? s : `\x1b[${code}m${s}\x1b[0m`);
  const ok = paint(32, '✓');
  const bad = paint(31, '✗');
  const fmt = new Formatter(options.summaryTimeUnit);
  const lines: string[] = [];

  if (verdicts.length > 0) {
    lines.push('  █ THRESHOLDS', '');
    const keys = [...new Set(verdicts.map((v) => v.key))];
    for (const key of keys) {
      lines.push(`    ${key}`);
      const e = store.entry(key);
      for (const v of verdicts.filter((x) => x.key === key)) {
        const agg = v.threshold.aggregation;
        const shown = v.value === undefined ? 'no samples' : e ? fmt.stat(e, agg, v.value) : String(v.value);
        lines.push(`    ${v.ok ? ok : bad} '${v.threshold.source}' ${agg}=${shown}`);
      }
      lines.push('');
    }
    lines.push('');
  }

  lines.push('  █ TOTAL RESULTS', '');
  // k6 lists a section's metrics by name, each sub-metric right under its metric.
  const entries = store
    .entries(true)
    .filter((e) => options.mode === 'full' || !COMPACT_HIDDEN.has(e.decl.name))
    .sort((a, b) => (a.decl.name === b.decl.name ? 0 : a.decl.name < b.decl.name ? -1 : 1));
  const checks = store.entry('checks');
  const checkRows: Row[] = [];
  if (checks && checks.sink.count > 0) {
    const s = checks.sink;
    const share = (n: number) => `${((n / s.count) * 100).toFixed(2)}%`;
    checkRows.push(
      ['checks_total', [fmt.number(s.count), `${fmt.number(s.count / Math.max(seconds, 1e-9))}/s`]],
      ['checks_succeeded', [share(s.nonZero), `${s.nonZero} out of ${s.count}`]],
      ['checks_failed', [share(s.count - s.nonZero), `${s.count - s.nonZero} out of ${s.count}`]],
    );
  }
  const sections = new Map<string, Row[]>();
  for (const e of entries) {
    if (e.decl.name === 'checks') continue;
    const section = SECTIONS.find(([, has]) => has(e.decl.name))?.[0] ?? 'CUSTOM';
    sections.set(section, [...(sections.get(section) ?? []), [label(e), cells(e, stats, fmt, seconds)]]);
  }
  // One layout for every block, so the figures line up down the whole summary.
  const all = [...checkRows, ...[...sections.values()].flat()];
  const layout: Layout = {
    width: Math.max(35, ...all.map(([name]) => name.length + 3)),
    first: Math.max(0, ...all.filter(([, cs]) => cs.length > 1 && !isTrend(cs)).map(([, cs]) => (cs[0] ?? '').length)),
    trend: trendColumns(all),
  };
  if (checkRows.length > 0) {
    lines.push(...table(checkRows, layout), '');
    lines.push(...checkLines(store.groups.root, '    ', ok, bad), '');
  }
  for (const section of ['CUSTOM', ...SECTIONS.map(([name]) => name)]) {
    const rows = sections.get(section);
    if (!rows) continue;
    lines.push(`    ${section}`, ...table(rows, layout), '');
  }
  return `\n${lines.join('\n')}\n`;
}

/** A summary line before layout: the name column and the figures. */
type Row = [string, string[]];

interface Layout {
  /** Name column width, dots included. */
  readonly width: number;
  /** Width of the first figure of non-trend rows. */
  readonly first: number;
  /** Width of each trend column. */
  readonly trend: readonly number[];
}

/** Trend rows are `stat=value` cells throughout; the others start with a bare figure. */
const isTrend = (cs: readonly string[]) => /^[a-z()0-9.]+=/.test(cs[0] ?? '');

/** The name column: the metric, or its sub-metric's tags indented below it as `{ k:v, k2:v2 }`. */
function label(e: MetricEntry): string {
  if (e.tags === undefined) return e.key;
  return `  { ${Object.entries(e.tags)
    .map(([k, v]) => `${k}:${v}`)
    .join(', ')} }`;
}

/** A metric's figures as the summary shows them, one string per column. */
function cells(e: MetricEntry, stats: readonly string[], fmt: Formatter, seconds: number): string[] {
  const s = e.sink;
  const v = (name: string) => s.stat(name, seconds) ?? 0;
  if (s.count === 0 && e.decl.type !== 'counter') return ['no samples'];
  switch (e.decl.type) {
    case 'trend':
      return stats.map((k) => `${k}=${k === 'count' ? fmt.number(s.count) : fmt.value(e, v(k))}`);
    case 'counter':
      return [fmt.value(e, s.sum), `${fmt.value(e, v('rate'))}/s`];
    case 'rate':
      return [`${(v('rate') * 100).toFixed(2)}%`, `${s.nonZero} out of ${s.count}`];
    case 'gauge':
      return [fmt.value(e, v('value')), `min=${fmt.value(e, v('min'))}`, `max=${fmt.value(e, v('max'))}`];
  }
}

/** Widths of the trend columns, shared by all trends so their figures line up. */
function trendColumns(rows: readonly Row[]): number[] {
  const widths: number[] = [];
  for (const [, cs] of rows) {
    if (!isTrend(cs)) continue;
    cs.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return widths;
}

/** `name.....: figure figure`, padded to the layout. */
function table(rows: readonly Row[], layout: Layout): string[] {
  return rows.map(([name, cs]) => {
    const widths = isTrend(cs) ? layout.trend : [layout.first];
    const padded = cs.map((c, i) => (i === cs.length - 1 ? c : c.padEnd(widths[i] ?? 0)));
    return `    ${name}${'.'.repeat(Math.max(3, layout.width - name.length))}: ${padded.join(' ')}`;
  });
}

/** ✓/✗ per check, with its pass share when some failed; each nested group under a `█ name` heading. */
function checkLines(g: GroupNode, indent: string, ok: string, bad: string): string[] {
  const out: string[] = [];
  for (const c of g.checks.values()) out.push(...checkLine(c, indent, ok, bad));
  for (const sub of g.groups.values()) {
    const inner = checkLines(sub, `${indent}  `, ok, bad);
    if (inner.length === 0) continue;
    out.push('', `${indent}█ ${sub.name}`, '', ...inner);
  }
  return out;
}

function checkLine(c: CheckCount, indent: string, ok: string, bad: string): string[] {
  if (c.fails === 0) return [`${indent}${ok} ${c.name}`];
  const total = c.passes + c.fails;
  return [`${indent}${bad} ${c.name}`, `${indent}  ↳  ${Math.floor((c.passes / total) * 100)}% — ${ok} ${c.passes} / ${bad} ${c.fails}`];
}

/** Numbers as k6 prints them: times with a unit, bytes in SI units, plain numbers with up to 6 decimals. */
class Formatter {
  constructor(private readonly timeUnit: 's' | 'ms' | 'us' | undefined) {}

  /** A threshold's value: rates as a share, counter rates per second, the rest like the metric's figures. */
  stat(e: MetricEntry, agg: string, v: number): string {
    if (e.decl.type === 'rate') return `${(v * 100).toFixed(2)}%`;
    if (e.decl.type === 'counter' && agg === 'rate') return `${this.value(e, v)}/s`;
    return this.value(e, v);
  }

  value(e: MetricEntry | { decl: { contains: string } }, v: number): string {
    if (e.decl.contains === 'time') return this.duration(v);
    if (e.decl.contains === 'data') return formatBytes(v);
    return this.number(v);
  }

  number(v: number): string {
    return String(Number(v.toFixed(6)));
  }

  duration(ms: number): string {
    return formatDuration(ms, { unit: this.timeUnit });
  }
}

/**
 * Bytes in SI units as k6 prints them: `519 B`, `81 kB`, `1.3 MB` (one decimal below 10).
 *
 * @example
 * formatBytes(1_300_000); // '1.3 MB'
 */
export function formatBytes(n: number): string {
  if (n < 10) return `${Math.round(n)} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const e = Math.min(units.length - 1, Math.floor(Math.log(n) / Math.log(1000)));
  const v = n / 1000 ** e;
  return `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ${units[e]}`;
}
