// The legacy `--summary-export` JSON (/results-output/end-of-test/): flat figures per metric and sub-metric, each
// threshold as `"<expr>": true` when it FAILED (k6's documented quirk), and the group tree with its check counts.

import { writeFile } from 'node:fs/promises';
import type { GroupNode } from './groups.js';
import { DEFAULT_TREND_STATS, summaryKeys, summaryValues } from './sink.js';
import type { MetricStore } from './store.js';
import type { ThresholdVerdict } from './thresholds.js';

/** One metric of the export: its figures, and its thresholds when it has any. */
export type ExportedMetric = Record<string, number | Record<string, boolean>>;

/** A group of root_group. */
export interface ExportedGroup {
  readonly name: string;
  readonly path: string;
  readonly id: string;
  readonly groups: Record<string, ExportedGroup>;
  readonly checks: Record<string, { name: string; path: string; id: string; passes: number; fails: number }>;
}

/** The whole --summary-export file. */
export interface SummaryExport {
  readonly metrics: Record<string, ExportedMetric>;
  readonly root_group: ExportedGroup;
}

export interface SummaryExportOptions {
  /** `summaryTrendStats`; default avg, min, med, max, p(90), p(95). */
  readonly summaryTrendStats?: readonly string[];
  /** The final verdicts; default: the store judges its thresholds now. */
  readonly verdicts?: readonly ThresholdVerdict[];
}

/**
 * Builds the --summary-export object from the store. Lists every metric and sub-metric that got a sample or has a
 * threshold; an empty one shows zeros (as k6 prints an empty sink), and its thresholds failed.
 *
 * @example
 * const json = summaryExport(store, { summaryTrendStats: ['avg', 'p(95)', 'p(99)'] });
 * json.metrics['http_req_duration{op:chat.respond}']?.thresholds; // { 'p(95)<500': false }
 */
export function summaryExport(store: MetricStore, options: SummaryExportOptions = {}): SummaryExport {
  const stats = options.summaryTrendStats ?? DEFAULT_TREND_STATS;
  const verdicts = options.verdicts ?? store.judge();
  const seconds = store.elapsedMs() / 1000;
  const metrics: Record<string, ExportedMetric> = {};
  for (const e of store.entries(true)) {
    const m: ExportedMetric = summaryValues(e.sink, summaryKeys(e.decl.type, stats), seconds);
    const mine = verdicts.filter((v) => v.key === e.key);
    if (mine.length > 0) m.thresholds = Object.fromEntries(mine.map((v) => [v.threshold.source, !v.ok]));
    metrics[e.key] = m;
  }
  return { metrics, root_group: exportGroup(store.groups.root) };
}

function exportGroup(g: GroupNode): ExportedGroup {
  return {
    name: g.name,
    path: g.path,
    id: g.id,
    groups: Object.fromEntries([...g.groups].map(([name, sub]) => [name, exportGroup(sub)])),
    checks: Object.fromEntries([...g.checks].map(([name, c]) => [name, { name: c.name, path: c.path, id: c.id, passes: c.passes, fails: c.fails }])),
  };
}

/**
 * Writes the --summary-export file (pretty JSON, as k6 writes it), its text passed through `redact` (the secret
 * values of --secret-source).
 *
 * @example
 * await writeSummaryExport('reports/summary.json', store, { verdicts });
 */
export async function writeSummaryExport(
  path: string,
  store: MetricStore,
  options: SummaryExportOptions = {},
  redact: (text: string) => string = (t) => t,
): Promise<void> {
  await writeFile(path, redact(`${JSON.stringify(summaryExport(store, options), null, 4)}\n`));
}
