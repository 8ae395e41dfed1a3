// The top of a load page: pass or fail in one line, each failed SLO in one line (metric, threshold, value, where the
// SLO came from), then the load delivered against the load asked for. A reader who opens the page sees why it failed
// before any plot or table.

import { BUILTIN_METRICS } from '../engine/modules/descriptions.js';
import { esc } from '../report/html.js';
import { type Delivery, deliveryHeadline } from './delivery.js';
import type { Interruption } from './interrupt.js';
import type { ThresholdResult } from './summary.js';

/** What the verdict reads of a run's result (src/load/page.ts's LoadResult has all of it). */
export interface RunOutcome {
  readonly scenario: string;
  readonly passed: boolean;
  readonly k6_exit_code: number;
  readonly thresholds: readonly ThresholdResult[];
  readonly headline: readonly string[];
  readonly delivery?: Delivery | undefined;
  readonly interrupted?: Interruption | undefined;
  readonly expectations?: { readonly slo_set: string } | undefined;
}

const TIMES = new Set(BUILTIN_METRICS.filter((m) => m.contains === 'time').map((m) => m.name));

/**
 * A threshold's value as the reader reads it: milliseconds for a time, a percentage beside a rate's fraction.
 *
 * @example
 * valueText({ metric: 'http_req_duration{op:chat.respond}', expression: 'p(95)<500', value: 729.6, passed: false }); // '729.60 ms'
 * valueText({ metric: 'http_req_failed', expression: 'rate<0.01', value: 0.034, passed: false }); // '0.034 (3.40 %)'
 */
export function valueText(t: ThresholdResult): string {
  const v = t.value;
  if (v === undefined) return 'no value';
  const plain = Number.isInteger(v) ? v.toLocaleString('en-US') : Math.abs(v) >= 100 ? v.toFixed(2) : Number(v.toPrecision(3)).toString();
  if (/^\s*rate/.test(t.expression) && !/^(http_reqs|iterations|dropped_iterations|data_)/.test(t.metric)) return `${plain} (${(v * 100).toFixed(2)} %)`;
  if (TIMES.has(t.metric.replace(/\{.*$/, '')) && !/^\s*count/.test(t.expression)) return `${v.toFixed(2)} ms`;
  return plain;
}

/**
 * Where an SLO came from, in words: the scenario's default, or the profile that set it.
 *
 * @example
 * sourceText({ source: 'profile', … }, result); // "set by profile staging-us's slos"
 */
export function sourceText(t: ThresholdResult, r: Pick<RunOutcome, 'scenario' | 'expectations'>): string {
  if (t.source === 'default') return `the default SLO of ${r.scenario} (scenarios/${r.scenario}.defaults.ts)`;
  if (t.source === 'profile') return `set by ${r.expectations?.slo_set ?? 'the target profile'}'s slos`;
  return 'source not recorded (a merge of segments)';
}

/** The verdict's one line: what the run's outcome is, in the reader's words. */
function outcome(r: RunOutcome): { cls: string; word: string; text: string } {
  const failed = r.thresholds.filter((t) => !t.passed).length;
  const of = `${r.thresholds.length} SLO${r.thresholds.length === 1 ? '' : 's'}`;
  if (r.interrupted)
    return {
      cls: 'skip',
      word: 'interrupted',
      text: `interrupted by ${r.interrupted.signal} at ${r.interrupted.at}: the part that ran is reported, neither passed nor failed${failed ? `; ${failed} of ${of} failed on it` : ''}`,
    };
  if (failed) return { cls: 'fail', word: 'fail', text: `${failed} of ${of} failed (exit ${r.k6_exit_code})` };
  if (r.delivery && !r.delivery.delivered) return { cls: 'fail', word: 'fail', text: `every SLO held, but the load asked for was not delivered` };
  if (!r.passed) return { cls: 'fail', word: 'fail', text: `the engine ended with exit ${r.k6_exit_code}` };
  return { cls: 'pass', word: 'pass', text: `all ${of} held on the load asked for` };
}

/**
 * The verdict section that opens every load page.
 *
 * @example
 * verdictBlock(result); // '<section class="verdict">…FAIL… 1 of 7 SLOs failed…<li>http_req_duration{op:chat.respond} p(95)<500 …'
 */
export function verdictBlock(r: RunOutcome): string {
  const o = outcome(r);
  const failed = r.thresholds
    .filter((t) => !t.passed)
    .map(
      (t) =>
        `<li class="failed-slo"><code>${esc(t.metric)}</code> <code>${esc(t.expression)}</code> was <strong>${esc(valueText(t))}</strong> · ` +
        `${esc(sourceText(t, r))}</li>`,
    )
    .join('');
  const load = r.delivery
    ? deliveryHeadline(r.delivery)
        .map((l, i) => `<p class="load${i === 0 && !r.delivery?.delivered ? ' short' : ''}">${esc(l)}</p>`)
        .join('')
    : '<p class="load muted">Load delivered against asked: not judged for this run.</p>';
  return `<section class="verdict" style="border:2px solid var(--${o.cls});border-radius:8px;padding:8px 14px;margin:10px 0">
<p class="verdict-line" style="font-size:17px;margin:4px 0"><span class="badge ${o.cls}">${esc(o.word.toUpperCase())}</span> <strong>${esc(o.text)}</strong></p>
${failed ? `<ul class="failed-slos" style="margin:4px 0 6px">${failed}</ul>` : ''}${load}</section>`;
}

/**
 * The headline lines the verdict section has not already said: the scenario's own figures.
 *
 * @example
 * restOfHeadline(result); // ['25.0/s chat turns, p95 15.4 ms (median 1.4 ms)', …]
 */
export function restOfHeadline(r: RunOutcome): string[] {
  const said = new Set(r.delivery ? deliveryHeadline(r.delivery) : []);
  return r.headline.filter((l) => !said.has(l) && !l.startsWith('interrupted by '));
}
