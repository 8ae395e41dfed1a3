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
import type { Interruption } from './interrupt.js';
import { loadJunit } from './junit.js';
import { type LoadResult, loadPage, type RunExpectations } from './page.js';
import { SCENARIOS } from './scenario-declarations.js';
import { thresholdsOf } from './summary.js';
import type { Timeline } from './timeline.js';
import { TIMELINE_FILE } from './timeline-file.js';
import { sloKeysOf, timelineSection } from './timeline-plots.js';

/** What a finished load run (or a merge of segments) hands to the report writer. */
export interface FinishedRun {
  readonly scenario: string;
  /** The workload's name (`smoke`, `nightly`, `capacity`), written as result.json's `profile`. */
  readonly workloadName: string;
  /** The workload key: its name, with --rate and --duration when they replace its own. */
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
  /** The engine's lines for outputs that could not deliver every sample (a store out of reach): in the headline. */
  readonly outputsDropped?: readonly string[] | undefined;
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
 * const { result, verdict } = await writeRunReport({ scenario: 'chat-turns', workloadName: 'smoke', workload: 'smoke', … });
 */
export async function writeRunReport(finished: FinishedRun): Promise<{ result: LoadResult; verdict: Verdict; historyPath: string }> {
  // A user's own script (`dialtone load ./script.js`) declares no figures; every scenario of dialtone does.
  const figures = SCENARIOS[finished.scenario]?.figures(finished.summary) ?? { figures: {}, headline: [] };
  const result: LoadResult = {
    tool_version: DIALTONE_VERSION,
    scenario: finished.scenario,
    profile: finished.workloadName,
    target: finished.target,
    engine: { kind: finished.engine.kind, version: finished.engine.version },
    started_at: new Date(finished.started).toISOString(),
    duration_ms: finished.durationMs ?? Date.now() - finished.started,
    k6_exit_code: finished.k6ExitCode ?? finished.exitCode,
    passed: finished.exitCode === 0,
    ...(finished.tlsInsecure ? { tls_insecure: true } : {}),
    figures: figures.figures,
    headline: [
      ...(finished.interrupted ? [interruptedLine(finished.interrupted)] : []),
      ...(finished.delivery ? deliveryHeadline(finished.delivery) : []),
      ...figures.headline,
      ...(finished.outputsDropped ?? []),
    ],
    ...(finished.delivery ? { delivery: finished.delivery } : {}),
    thresholds: thresholdsOf(finished.summary, finished.expectations?.slos),
    ...(finished.expectations ? { expectations: finished.expectations } : {}),
    workload: finished.workload,
    metrics: metricsOf(finished.summary),
    // A cut-short run is no baseline: pinning one would compare every later night with half a run.
    ...(finished.baselineTag && finished.record && !finished.interrupted ? { baseline_tag: finished.baselineTag } : {}),
    ...(finished.interrupted ? { interrupted: finished.interrupted } : {}),
  };
  const historyPath = finished.history ?? join(finished.dir, 'history.jsonl');
  const earlier = readHistory<LoadResult>(historyPath);
  const verdict = judgeRun(earlier, result, finished.record && !finished.interrupted);
  // The control's reading goes on the page and in result.json, never into the history: it judges tonight, not a metric.
  const control = finished.control && finished.record ? controlReading(verdict, finished.control) : undefined;
  if (finished.record) appendHistory(historyPath, redact(JSON.stringify(result), finished.secrets));
  const shown: LoadResult = control ? { ...result, control } : result;
  const nights = [...baselineOf(earlier, result), result];
  const controlHtml = control
    ? `<h2>Control</h2><ul>${controlLines(control)
        .map((l) => `<li>${esc(l.trim())}</li>`)
        .join('')}</ul>`
    : '';
  const section = finished.record
    ? (await nightlySection(verdict, nights, finished.summary)) + controlHtml
    : '<p class="muted">One execution segment: merge the segments (dialtone merge) for the run\'s verdict.</p>';
  const timeline = await timelineSection(finished.timeline, sloKeysOf(result.thresholds), finished.timelineMissing);
  writeReportFiles(
    finished.dir,
    {
      'index.html': loadPage(
        result,
        finished.summary,
        [...earlier, ...(finished.record ? [result] : [])],
        existsSync(join(finished.dir, 'dashboard.html')),
        section,
        latestCapacityLink(finished.reportDir, finished.scenario, '../..'),
        timeline,
      ),
      'result.json': `${JSON.stringify(shown, null, 2)}\n`,
      'junit.xml': loadJunit(result, finished.record ? verdict : undefined),
      ...(finished.timeline ? { [TIMELINE_FILE]: `${JSON.stringify(finished.timeline)}\n` } : {}),
    },
    finished.secrets,
  );
  writeIndexPage(finished.reportDir);
  return { result: shown, verdict, historyPath };
}
