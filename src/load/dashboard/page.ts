// The live dashboard's page: the report's stylesheet and the report's plots (the Vega-Lite specs of
// src/load/timeline-plots.ts), a section replaced once a period, and at the end the report page itself. The report
// turns each spec into SVG in Node (src/report/chart.ts); here the browser does it with the same Vega and Vega-Lite,
// served from dialtone's own dependencies: drawing every plot once a second would cost the dialtone process, which
// may host the reference target, most of a core.
import type { TopLevelSpec } from 'vega-lite';
import { badge, esc, page } from '../../report/html.js';
import { sloSeries } from '../timeline.js';
import { timelineSection, timelineSpecs } from '../timeline-plots.js';
import { type LiveView, sloKeys } from './state.js';

/** One update: the section's HTML, and the spec of each plot whose figure it holds. */
export interface LiveUpdate {
  readonly sample: number;
  readonly html: string;
  readonly plots: readonly { readonly name: string; readonly spec: TopLevelSpec }[];
}

const fmt = (v: number | null, digits = 2) => (v === null ? 'no sample yet' : Number.isInteger(v) ? String(v) : v.toFixed(digits));

/** What the schedule asks, summed over scenarios: iterations a second where it is an arrival rate, else VUs. */
function askedText(v: LiveView): string {
  const rate = v.asked.filter((a) => a.rate_per_s !== undefined).reduce((s, a) => s + (a.rate_per_s ?? 0), 0);
  const vus = v.asked.filter((a) => a.vus !== undefined).reduce((s, a) => s + (a.vus ?? 0), 0);
  const parts = [...(v.asked.some((a) => a.rate_per_s !== undefined) ? [`${fmt(rate)} iterations/s`] : []), ...(vus > 0 ? [`${vus} VUs`] : [])];
  return parts.length ? parts.join(' and ') : 'nothing yet';
}

/** The run over time as the report's section has it: a line on where it comes from, then a figure per plot. */
function overTime(v: LiveView): Pick<LiveUpdate, 'html' | 'plots'> {
  const tl = v.timeline;
  if (!tl || tl.points.length === 0) return { html: '<h2>The run over time</h2><p class="muted">Not drawn: no sample has arrived yet.</p>', plots: [] };
  const slos = sloKeys(v.thresholds);
  const plots = timelineSpecs(tl, slos, v.spans);
  const breached = sloSeries(tl, slos).filter((s) => s.breaches.length > 0);
  const note = breached.length
    ? `Shaded: the intervals in which ${breached.map((s) => `${s.key} ${s.expression.source}`).join(', ')} did not hold.`
    : 'No SLO drawn here was breached in any interval.';
  const figures = plots.map((p) => `<figure class="plot" data-plot="${esc(p.name)}"></figure>`).join('');
  return {
    html:
      `<h2>The run over time</h2><p class="muted">From the engine's samples so far, from ${esc(tl.started_at)}, ` +
      `in ${tl.interval_s} s intervals. ${esc(note)}</p>` +
      `<div class="timeline" style="display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:12px">${figures}</div>`,
    plots,
  };
}

/** The verdict so far, load asked and delivered, VUs, errors and the thresholds' table: the section above the plots. */
function liveFacts(v: LiveView): string {
  const failing = v.thresholds.filter((t) => !t.ok);
  const verdict = v.thresholds.length === 0 ? badge('skipped') : badge(failing.length ? 'fail' : 'pass');
  const last = v.timeline?.points.at(-2) ?? v.timeline?.points.at(-1);
  const errors = last?.rates.http_req_failed;
  const rows = v.thresholds
    .map(
      (t) =>
        `<tr><td><code>${esc(t.key)}</code></td><td><code>${esc(t.source)}</code></td>` +
        `<td>${esc(fmt(t.value, 3))}</td><td>${badge(t.ok ? 'pass' : 'fail')}</td></tr>`,
    )
    .join('');
  const heading =
    `<p class="verdict">${verdict} so far: ${v.thresholds.length - failing.length} of ${v.thresholds.length} thresholds holding` +
    `${v.step ? ` · <strong class="step">${esc(v.step)}</strong>` : ''}</p>`;
  const facts =
    `<p>${esc(fmt(v.elapsedS, 0))} s into the run · asked <strong>${esc(askedText(v))}</strong> · delivered ` +
    `<strong>${esc(last ? `${fmt(last.iterations_per_s)} iterations/s, ${fmt(last.requests_per_s)} requests/s` : 'nothing yet')}</strong>` +
    ` · <strong>${v.vus}</strong> of ${v.vusMax} VUs · errors <strong>${errors === undefined ? 'none sent yet' : `${fmt(errors * 100, 2)} %`}</strong>` +
    ' (last whole second)</p>';
  const table = rows ? `<table><tr><th>metric</th><th>threshold</th><th>so far</th><th></th></tr>${rows}</table>` : '';
  return `${heading}${facts}${table}`;
}

/**
 * The section that changes: the verdict so far, load asked and delivered, VUs, errors, and the report's plots of the run
 * over time with the SLO lines (their specs, drawn by the page).
 *
 * @example
 * const update = liveUpdate(state.view());
 */
export function liveUpdate(v: LiveView): LiveUpdate {
  const plots = overTime(v);
  return { sample: v.samples, html: `<section id="live" data-sample="${v.samples}">${liveFacts(v)}${plots.html}</section>`, plots: plots.plots };
}

/**
 * The dashboard's final state as a page of its own, for a run no dialtone report follows (the engine alone): the last
 * update's facts and the report's plots drawn to inline SVG in Node, as the report page draws them (no script).
 *
 * @example
 * await dash.finishWith(await finalPage('dialtone-engine run script.js', dash.view()));
 */
export async function finalPage(title: string, v: LiveView): Promise<string> {
  const plots = await timelineSection(v.timeline, sloKeys(v.thresholds), 'no sample arrived', v.spans);
  return page(
    title,
    `<h1>${esc(title)}</h1><section id="final" data-sample="${v.samples}">${liveFacts(v).replace(' so far:', ' at the end:')}${plots}</section>`,
  );
}

/**
 * What the page's script does: each `update` replaces the section and draws its plots as src/report/chart.ts does
 * (Vega-Lite compiled to Vega, a view rendering SVG); `final` puts the report page in the tab's place.
 */
const SCRIPT = `
const events = new EventSource('events');
let drawn = 0;
events.addEventListener('update', async (e) => {
  const { sample, html, plots } = JSON.parse(e.data);
  if (sample < drawn) return;
  drawn = sample;
  const svgs = await Promise.all(plots.map(async (p) => {
    const view = new vega.View(vega.parse(vegaLite.compile(p.spec).spec), { renderer: 'none' });
    try { return [p.name, await view.toSVG()]; } finally { view.finalize(); }
  }));
  if (sample !== drawn) return;
  const section = document.createElement('template');
  section.innerHTML = html;
  for (const [name, svg] of svgs) {
    const figure = [...section.content.querySelectorAll('figure.plot')].find((f) => f.dataset.plot === name);
    if (figure) figure.innerHTML = svg;
  }
  document.getElementById('live').replaceWith(section.content);
});
events.addEventListener('final', (e) => {
  events.close();
  const { html } = JSON.parse(e.data);
  document.open(); document.write(html); document.close();
});`;

/**
 * The page a browser opens: the title, an empty section the first update fills, Vega and Vega-Lite, and the script.
 *
 * @example
 * dashboardPage('load chat-turns (smoke)');
 */
export function dashboardPage(title: string): string {
  return page(
    `${title}: live`,
    `<h1>${esc(title)}</h1><p class="muted">Live: updated once a period while the run goes; the report page takes its place at the end.</p>` +
      '<section id="live" data-sample="0"><p class="muted">Waiting for the first sample.</p></section>' +
      '<script src="vega.js"></script><script src="vega-lite.js"></script>',
    SCRIPT,
  );
}
