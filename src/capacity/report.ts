// The capacity report: capacity.json, steps.csv and a self-contained page with inline SVG plots.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { engineName } from '../core/engine-version.js';
import { TIMELINE_FILE } from '../load/timeline-file.js';
import { sloKeysOf, timelineSection } from '../load/timeline-plots.js';
import { esc, page } from '../report/html.js';
import { writeIndexPage } from '../report/index-page.js';
import { writeReportFiles } from '../report/write.js';
import { type BoundaryInterval, WIDE_INTERVAL } from './analysis.js';
import { dailyCurveChart, errorChart, latencyChart, throughputChart, uslChart } from './charts.js';
import { growthSection } from './growth-page.js';
import { headroomLine } from './headroom.js';
import { capacityVerdictLine } from './history.js';
import type { SearchOverTime } from './over-time.js';
import { type CapacityResult, perOf } from './result.js';
import { keptUp } from './search.js';
import type { StepResult } from './step.js';
import { answeredOf, closedWorkOf } from './units.js';
import { USL_R2_TRUSTED } from './usl.js';

const num = (v: number | undefined | null, digits = 2) => (v === undefined || v === null || !Number.isFinite(v) ? '' : v.toFixed(digits));
const n = num;

/** The CSV columns, in order, and how each is read from a step. */
const COLUMNS: readonly [string, (s: StepResult, slo: string | undefined) => string][] = [
  ['step', (s) => String(s.index)],
  ['stage', (s) => s.stage],
  ['offered_rate', (s) => n(s.offered_rate, 4)],
  ['throughput', (s) => n(s.throughput, 4)],
  ['requests_per_s', (s) => n(s.requests_per_s, 2)],
  ['requests_per_iteration', (s) => n(s.requests_per_iteration, 2)],
  ['slo_metric_p50_ms', (s, m) => n(m ? s.latency[m]?.p50 : undefined)],
  ['slo_metric_p95_ms', (s, m) => n(m ? s.latency[m]?.p95 : undefined)],
  ['slo_metric_p99_ms', (s, m) => n(m ? s.latency[m]?.p99 : undefined)],
  ['error_rate', (s) => n(s.error_rate, 4)],
  ['dropped_iterations', (s) => String(s.dropped_iterations)],
  ['vus_in_use', (s) => String(s.vus_in_use)],
  ['vus_cap', (s) => String(s.vus_cap)],
  ['generator_cpu_cores', (s) => n(s.generator_cpu_cores, 3)],
  ['mean_iteration_s', (s) => n(s.mean_iteration_s, 4)],
  ['concurrency', (s) => n(s.concurrency, 3)],
  ['slo_held', (s) => String(s.slo_held)],
  [
    'failed_thresholds',
    (s) =>
      `"${s.thresholds
        .filter((t) => !t.passed)
        .map((t) => `${t.metric} ${t.expression}`)
        .join('; ')
        .replace(/"/g, '""')}"`,
  ],
  // The closed model's messages (empty for an arrival-rate search).
  ['messages_sent_per_s', (s) => n(s.messages?.offered_per_s, 2)],
  ['messages_answered_per_s', (s) => n(s.messages?.answered_per_s, 2)],
  // The learned workload's conversations (empty otherwise): started is the throughput, completed beside it.
  ['conversations_started_per_s', (s) => n(s.conversations?.started_per_s, 4)],
  ['conversations_completed_per_s', (s) => n(s.conversations?.completed_per_s, 4)],
];

/** The steps as CSV, one row per step in the order they ran. */
export function stepsCsv(r: CapacityResult): string {
  const m = r.analysis.latency_slo?.metric;
  return `${COLUMNS.map(([c]) => c).join(',')}\n${r.steps.map((s) => COLUMNS.map(([, f]) => f(s, m)).join(',')).join('\n')}\n`;
}

/** The verdict sentence at the top of the page and of the command's output. */
/**
 * Where the boundary lies and how sure the search is of it.
 *
 * @example
 * intervalText(interval, 'conversations/s'); // 'The boundary lies between 4.50 and 5.00 conversations/s (5.3 % either side of 4.75; 3 and 3 steps).'
 */
export function intervalText(i: BoundaryInterval, per: string, digits = 2): string {
  const n = (x: number) => num(x, digits);
  const mid = (i.low + i.high) / 2;
  const half = ((i.high - i.low) / 2 / mid) * 100;
  const steps =
    i.observations.low === 1 && i.observations.high === 1 ? "one step each, the search's bracket" : `${i.observations.low} and ${i.observations.high} steps`;
  const mixed = i.mixed.length ? `; steps at ${i.mixed.map(n).join(', ')} ${per} held and broke` : '';
  const wide = i.wide
    ? ` Too wide to plan on (over ${(WIDE_INTERVAL * 100).toFixed(0)} % of its low end): plan on ${n(i.low)} ${per}, or search again with --repeats.`
    : '';
  return (
    `The boundary lies between ${n(i.low)} and ${n(i.high)} ${per} (${half.toFixed(1)} % either side of ${num(mid, Math.max(1, digits))}; ` +
    `${steps}${mixed}).${wide}`
  );
}

export function verdict(r: CapacityResult): string {
  const a = r.analysis;
  const per = perOf(r);
  // What a closed model holds is whole.
  const n = (x: number | null | undefined) => num(x, r.model ? 0 : 2);
  if (r.interrupted) {
    const last = r.steps.filter((s) => s.slo_held).at(-1);
    return `Interrupted by ${r.interrupted.signal} at step ${r.steps.length} (${r.interrupted.at}); ${last ? `the last held step was ${n(last.offered_rate)} ${per} (step ${last.index})` : 'no step held before it'}. No maximum sustainable rate is claimed.`;
  }
  if (a.limited_by === 'load-generator') return `The load generator was the limit: ${a.limit_reason}.${heldAt(r)}`;
  if (a.limited_by === 'none') return `Nothing broke up to ${n(a.max_sustainable_rate)} ${per}: ${a.limit_reason}.${heldAt(r)}`;
  return `Sustains ${n(a.max_sustainable_rate)} ${per} with every SLO held; ${a.limit_reason}.${a.interval ? ` ${intervalText(a.interval, per, r.model ? 0 : 2)}` : ''}${heldAt(r)}`;
}

/**
 * Why a search with a traffic model gives no headroom line: the headroom is given only against a capacity the target
 * set, found by a search that completed.
 *
 * @example
 * noHeadroom(result) // 'the load generator was the limit: the target's capacity is not known'
 */
export function noHeadroom(r: Pick<CapacityResult, 'stopped' | 'analysis'>): string {
  const a = r.analysis;
  if (a.limited_by === 'load-generator') return "the load generator was the limit: the target's capacity is not known";
  if (r.stopped === 'step-budget' || r.stopped === 'time-budget') return `the search was cut short by its ${r.stopped} before it refined the knee`;
  if (a.limited_by === 'none') return 'nothing broke: the capacity lies above the highest rate offered';
  return 'no step held the SLOs: there is no capacity to set the busiest hour beside';
}

/** What a learned search played: one sentence, empty for the scenario's own iteration. */
export function playedText(r: Pick<CapacityResult, 'workload' | 'unit'>): string {
  const w = r.workload;
  if (!w) return '';
  return `Workload learned from ${w.file}: ${r.unit} arrive at the rate searched (an open model), each turn waits for the answer and a think time drawn from the model (median ${num(w.think_time_p50_s, 1)} s), turns per conversation drawn too (median ${num(w.turns_p50, 0)}); a step's load was delivered when the ${r.unit} it started kept up with those asked.`;
}

/**
 * What the closed model held and at what pace, in its scenario's words (its declaration's unit): one sentence, empty for
 * an arrival-rate search.
 *
 * @example
 * heldAt(voiceResult); // ' Closed model: calls held for a whole step each, every call taking 0.25 turns/s; with 12 held, 2.9 of the 3.0 turns/s taken …'
 */
export function heldAt(r: CapacityResult): string {
  if (!r.model) return '';
  const work = closedWorkOf(r.scenario);
  const best = r.steps.filter((s) => s.offered_rate === r.analysis.max_sustainable_rate).at(-1)?.messages;
  const answered = best ? `; with ${num(r.analysis.max_sustainable_rate, 0)} held, ${answeredOf(work, best)} were answered in full` : '';
  return ` Closed model: ${r.unit} held for a whole step each, ${work.pace(r.model.sockets, r.model.message_rate_per_socket)}${answered}.`;
}

async function svg(spec: Parameters<typeof import('../report/chart.js')['renderSvg']>[0] | undefined): Promise<string> {
  if (!spec) return '';
  const { renderSvg } = await import('../report/chart.js');
  return `<figure>${await renderSvg(spec)}</figure>`;
}

/** The fit's predicted peak, or why there is none to read. */
function uslPeak(f: NonNullable<CapacityResult['analysis']['usl']>, unit: string): string {
  if (f.r2 < USL_R2_TRUSTED) return `a poor fit (R² below ${USL_R2_TRUSTED}): its peak is no prediction`;
  if (f.peak_throughput === undefined) return 'predicted peak none (κ = 0)';
  return `predicted peak ${n(f.peak_throughput)} ${esc(unit)}/s at concurrency ${n(f.peak_concurrency, 1)}`;
}

function stepRows(r: CapacityResult): string {
  const m = r.analysis.latency_slo?.metric;
  return r.steps
    .map(
      (s) =>
        `<tr><td>${s.index}</td><td>${esc(s.stage)}</td><td>${n(s.offered_rate)}</td><td>${n(s.throughput)}</td><td>${m ? `${n(s.latency[m]?.p50, 0)} / ${n(s.latency[m]?.p95, 0)} / ${n(s.latency[m]?.p99, 0)}` : ''}</td><td>${n(s.error_rate * 100)}%</td><td>${s.dropped_iterations}</td><td>${s.vus_in_use} / ${s.vus_cap}</td><td>${n(s.generator_cpu_cores)}</td><td>${
          s.slo_held
            ? keptUp(s, r.search)
              ? 'held'
              : `held, but <b>fell behind</b>: ${n(s.throughput)} of ${n(s.offered_rate)}/s completed (a queue was growing)`
            : `<b>broke</b>: ${esc(
                s.thresholds
                  .filter((t) => !t.passed)
                  .map((t) => `${t.metric} ${t.expression}`)
                  .join('; '),
              )}`
        }</td></tr>`,
    )
    .join('');
}

/** The SLOs every step was judged by, each with its source; nothing for a report from before they were recorded. */
function sloTable(r: CapacityResult): string {
  if (!r.slos) return '';
  const rows = r.slos.entries
    .map(
      (e) =>
        `<tr><td><code>${esc(e.key)}</code></td><td><code>${esc(e.expressions.map((t) => (typeof t === 'string' ? t : t.threshold)).join(', '))}</code></td><td>${esc(e.source)}</td></tr>`,
    )
    .join('');
  return `<h2>SLOs: ${esc(r.slos.slo_set)}</h2><table><tr><th>Metric</th><th>Threshold</th><th>Source</th></tr>${rows}</table>`;
}

/** The page: verdict, figures, plots, the search over time (when given), the SLOs, the step table. */
export async function capacityPage(r: CapacityResult, hasLoadPage = false, overTime?: SearchOverTime): Promise<string> {
  const a = r.analysis;
  const plots = [
    await svg(dailyCurveChart(r)),
    await svg(latencyChart(r)),
    await svg(throughputChart(r)),
    await svg(uslChart(r)),
    await svg(errorChart(r)),
  ].join('');
  const timeline = overTime
    ? await timelineSection(overTime.timeline, sloKeysOf(overTime.thresholds), overTime.missing, overTime.spans, 'The search over time')
    : '';
  const body = `<nav><a href="../../index.html">← all reports</a>${hasLoadPage ? `<a href="../../load/${esc(r.scenario)}/index.html">load page</a>` : ''}<a href="capacity.json">capacity.json</a><a href="steps.csv">steps.csv</a></nav>
<h1>Capacity: ${esc(r.scenario)}</h1>
<p class="muted">${esc(r.started_at)} · target ${esc(r.target)} · engine ${esc(engineName(r.engine))} · ${r.steps.length} steps of ${r.search.stepSeconds} s (first ${r.search.warmupSeconds} s discarded) · search ${n(r.wall_s, 0)} s, stopped: ${esc(r.stopped)}</p>
<p><b>${esc(verdict(r))}</b></p>${r.workload ? `\n<p class="workload">${esc(playedText(r))}</p>` : ''}${r.headroom && a.max_sustainable_rate !== null ? `\n<p class="headroom"><b>${esc(headroomLine(r.headroom, r.unit, a.max_sustainable_rate))}</b></p>` : r.workload ? `\n<p class="headroom">No headroom: ${esc(noHeadroom(r))}.</p>` : ''}${r.verdict ? `\n<p class="capacity-verdict">${esc(capacityVerdictLine(r.verdict, perOf(r), r.model ? 0 : 2))}</p>` : ''}
<table><tr><th>max sustainable rate</th><td>${a.max_sustainable_rate === null ? 'none reported' : `${num(a.max_sustainable_rate, r.model ? 0 : 2)} ${esc(perOf(r))}`}</td></tr>
<tr><th>limited by</th><td>${esc(a.limited_by)}</td></tr>
<tr><th>knee</th><td>${a.knee ? `${num(a.knee.rate, r.model ? 0 : 2)} ${esc(perOf(r))}: ${esc(a.knee.reason)}` : 'not seen'}</td></tr>
<tr><th>USL fit</th><td>${a.usl ? `σ ${n(a.usl.sigma, 4)}, κ ${n(a.usl.kappa, 5)}, R² ${n(a.usl.r2, 3)}; ${uslPeak(a.usl, r.unit)}` : 'too few steps'}</td></tr></table>
${await growthSection(r)}<h2>Plots</h2>${plots}
${timeline}
${sloTable(r)}
<h2>Steps</h2><table><tr><th>#</th><th>stage</th><th>offered/s</th><th>throughput/s</th><th>${esc(a.latency_slo?.metric ?? 'latency')} p50 / p95 / p99 (ms)</th><th>errors</th><th>dropped</th><th>VUs</th><th>engine CPU (cores)</th><th>SLOs</th></tr>${stepRows(r)}</table>`;
  return page(`dialtone capacity: ${r.scenario}`, body);
}

/**
 * Writes capacity.json, steps.csv, index.html and, when the steps kept histograms, timeline.json to `dir`
 * (DIR/capacity/SCENARIO), then the reports index.
 *
 * @example
 * await writeCapacityReport('reports/capacity/chat-turns', result, secrets, searchOverTime(result, work));
 */
export async function writeCapacityReport(dir: string, r: CapacityResult, secrets: readonly string[], overTime?: SearchOverTime): Promise<void> {
  writeReportFiles(
    dir,
    {
      'capacity.json': `${JSON.stringify(r, null, 2)}\n`,
      'steps.csv': stepsCsv(r),
      'index.html': await capacityPage(r, existsSync(join(dirname(dirname(dir)), 'load', r.scenario, 'index.html')), overTime),
      ...(overTime?.timeline ? { [TIMELINE_FILE]: `${JSON.stringify(overTime.timeline)}\n` } : {}),
    },
    secrets,
  );
  writeIndexPage(dirname(dirname(dir)));
}
