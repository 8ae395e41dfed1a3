import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineId } from '../core/engine-version.js';
import type { K6Summary } from '../core/summary.js';
import { controlLines, controlReading } from '../nightly/control.js';
import { appendHistory, baselineOf, readHistory } from '../nightly/history.js';
import { judgeRun } from '../nightly/judge-run.js';
import { metricsOf } from '../nightly/metrics.js';
import { nightlySection } from '../nightly/trend-plots.js';
import type { Verdict } from '../nightly/verdict.js';
import { redact } from '../profile/redact.js';
import { latestCapacityLink } from '../report/capacity-index.js';
import { esc } from '../report/html.js';
import { writeIndexPage } from '../report/index-page.js';
import { writeReportFiles } from '../report/write.js';
import { DIALTONE_VERSION } from '../version.js';
import { type Delivery, deliveryHeadline } from './delivery.js';
import { FIGURES } from './headline-figures.js';
import type { Interruption } from './interrupt.js';
import { loadJunit } from './junit.js';
import { type LoadResult, loadPage, type RunExpectations } from './page.js';
import { thresholdsOf } from './summary.js';
import type { Timeline } from './timeline.js';
import { TIMELINE_FILE } from './timeline-file.js';
import { sloKeysOf, timelineSection } from './timeline-plots.js';

/** What a finished load run (or a merge of segments) hands to the report writer. */
export interface FinishedRun {
  readonly scenario: string;
  readonly profile: string;
  readonly workload: string;
  readonly target: string;
  /** The engine that ran it: the user's k6 or the built-in engine, with its version. */
  readonly engine: EngineId;
  readonly started: number;
  readonly exitCode: number;
  readonly summary: K6Summary;
  /** DIR/load/SCENARIO, and DIR itself (whose index page lists every report). */
  readonly dir: string;
  readonly reportDir: string;
  readonly secrets: readonly string[];
  /** The history file; default DIR/load/SCENARIO/history.jsonl. */
  readonly history?: string | undefined;
  /** False for one execution segment: a part of a run is neither history nor judged. */
  readonly record: boolean;
  /** The run's length when it is not "until now" (a merge of segments run earlier). */
  readonly durationMs?: number | undefined;
  /** The profile turned certificate verification off: the page says so. */
  readonly tlsInsecure?: boolean;
  /** The engine's own exit code when `exitCode` was replaced (load not delivered: 5); default `exitCode`. */
  readonly k6ExitCode?: number;
  /** Whether the load asked for was delivered (src/load/delivery.ts); its headline comes first. */
  readonly delivery?: Delivery;
  /** The SLOs and workload the run was judged by, with their sources (src/load/page.ts); absent for a merge of old segments. */
  readonly expectations?: RunExpectations | undefined;
  /** `--baseline-tag`: the run is recorded as a pinned baseline under this name. */
  readonly baselineTag?: string | undefined;
  /** `--control`: the verdict of the same scenario and workload run against the reference target on this runner. */
  readonly control?: Verdict | undefined;
  /** A stop signal cut the run short: recorded, marked, and neither judged nor a baseline. */
  readonly interrupted?: Interruption | undefined;
  /** The run over time from its own samples (src/load/timeline.ts): drawn on the page and kept as timeline.json. */
  readonly timeline?: Timeline | undefined;
  /** Why there is no timeline, as the page says it (default: the run kept no samples). */
  readonly timelineMissing?: string | undefined;
}

/** The headline of a run a stop signal cut short. */
export const interruptedLine = (i: Interruption) =>
  `interrupted by ${i.signal} at ${i.at}: the figures are of the part that ran, and the run is compared with no other`;

/**
 * Writes a run's report: result.json, junit.xml (one case per threshold), index.html with the
 * regression verdict and trend plots, appends the run to the history and judges it against the earlier
 * runs of the same workload on the same kind of engine. Every file passes the redactor.
 *
 * @example
 * const { result, verdict } = await writeRunReport({ scenario: 'chat-turns', profile: 'smoke', workload: 'smoke', … });
 */
export async function writeRunReport(o: FinishedRun): Promise<{ result: LoadResult; verdict: Verdict; historyPath: string }> {
  const figures = (FIGURES[o.scenario] ?? (() => ({ figures: {}, headline: [] })))(o.summary);
  const result: LoadResult = {
    tool_version: DIALTONE_VERSION,
    scenario: o.scenario,
    profile: o.profile,
    target: o.target,
    engine: { kind: o.engine.kind, version: o.engine.version },
    started_at: new Date(o.started).toISOString(),
    duration_ms: o.durationMs ?? Date.now() - o.started,
    k6_exit_code: o.k6ExitCode ?? o.exitCode,
    passed: o.exitCode === 0,
    ...(o.tlsInsecure ? { tls_insecure: true } : {}),
    figures: figures.figures,
    headline: [...(o.interrupted ? [interruptedLine(o.interrupted)] : []), ...(o.delivery ? deliveryHeadline(o.delivery) : []), ...figures.headline],
    ...(o.delivery ? { delivery: o.delivery } : {}),
    thresholds: thresholdsOf(o.summary, o.expectations?.slos),
    ...(o.expectations ? { expectations: o.expectations } : {}),
    workload: o.workload,
    metrics: metricsOf(o.summary),
    // A cut-short run is no baseline: pinning one would compare every later night with half a run.
    ...(o.baselineTag && o.record && !o.interrupted ? { baseline_tag: o.baselineTag } : {}),
    ...(o.interrupted ? { interrupted: o.interrupted } : {}),
  };
  const historyPath = o.history ?? join(o.dir, 'history.jsonl');
  const earlier = readHistory<LoadResult>(historyPath);
  const verdict = judgeRun(earlier, result, o.record && !o.interrupted);
  // The control's reading goes on the page and in result.json, never into the history: it judges tonight, not a metric.
  const control = o.control && o.record ? controlReading(verdict, o.control) : undefined;
  if (o.record) appendHistory(historyPath, redact(JSON.stringify(result), o.secrets));
  const shown: LoadResult = control ? { ...result, control } : result;
  const nights = [...baselineOf(earlier, result), result];
  const controlHtml = control
    ? `<h2>Control</h2><ul>${controlLines(control)
        .map((l) => `<li>${esc(l.trim())}</li>`)
        .join('')}</ul>`
    : '';
  const section = o.record
    ? (await nightlySection(verdict, nights, o.summary)) + controlHtml
    : '<p class="muted">One execution segment: merge the segments (dialtone merge) for the run\'s verdict.</p>';
  const timeline = await timelineSection(o.timeline, sloKeysOf(result.thresholds), o.timelineMissing);
  writeReportFiles(
    o.dir,
    {
      'index.html': loadPage(
        result,
        o.summary,
        [...earlier, ...(o.record ? [result] : [])],
        existsSync(join(o.dir, 'dashboard.html')),
        section,
        latestCapacityLink(o.reportDir, o.scenario, '../..'),
        timeline,
      ),
      'result.json': `${JSON.stringify(shown, null, 2)}\n`,
      'junit.xml': loadJunit(result, o.record ? verdict : undefined),
      ...(o.timeline ? { [TIMELINE_FILE]: `${JSON.stringify(o.timeline)}\n` } : {}),
    },
    o.secrets,
  );
  writeIndexPage(o.reportDir);
  return { result: shown, verdict, historyPath };
}
