// The live dashboard's page: the report's stylesheet and plots (src/load/timeline-plots.ts through src/report/chart.ts),
// a section the server replaces once a period, and at the end the report page itself.
import { badge, esc, page } from '../../report/html.js';
import { timelineSection } from '../timeline-plots.js';
import { type LiveView, sloKeys } from './state.js';

const fmt = (v: number | null, digits = 2) => (v === null ? 'no sample yet' : Number.isInteger(v) ? String(v) : v.toFixed(digits));

/** What the schedule asks, summed over scenarios: iterations a second where it is an arrival rate, else VUs. */
function askedText(v: LiveView): string {
  const rate = v.asked.filter((a) => a.rate_per_s !== undefined).reduce((s, a) => s + (a.rate_per_s ?? 0), 0);
  const vus = v.asked.filter((a) => a.vus !== undefined).reduce((s, a) => s + (a.vus ?? 0), 0);
  const parts = [...(v.asked.some((a) => a.rate_per_s !== undefined) ? [`${fmt(rate)} iterations/s`] : []), ...(vus > 0 ? [`${vus} VUs`] : [])];
  return parts.length ? parts.join(' and ') : 'nothing yet';
}

/**
 * The section that changes: the verdict so far, load asked and delivered, VUs, errors, and the report's plots of the run
 * over time with the SLO lines.
 *
 * @example
 * const html = await liveSection(state.view());
 */
export async function liveSection(v: LiveView): Promise<string> {
  const failing = v.thresholds.filter((t) => !t.ok);
  const verdict = v.thresholds.length === 0 ? badge('skipped') : badge(failing.length ? 'fail' : 'pass');
  const last = v.timeline?.points.at(-2) ?? v.timeline?.points.at(-1);
  const errors = last?.rates.http_req_failed;
  const rows = v.thresholds
    .map(
      (t) =>
        `<tr><td><code>${esc(t.key)}</code></td><td><code>${esc(t.source)}</code></td><td>${esc(fmt(t.value, 3))}</td><td>${badge(t.ok ? 'pass' : 'fail')}</td></tr>`,
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
  const plots = await timelineSection(v.timeline, sloKeys(v.thresholds), 'no sample has arrived yet', v.spans);
  return `<section id="live" data-sample="${v.samples}">${heading}${facts}${table}${plots}</section>`;
}

/** What the page's script does: each `update` replaces the section, `final` puts the report page in its place. */
const SCRIPT = `
const events = new EventSource('events');
events.addEventListener('update', (e) => {
  const { html } = JSON.parse(e.data);
  document.getElementById('live').outerHTML = html;
});
events.addEventListener('final', (e) => {
  events.close();
  const { html } = JSON.parse(e.data);
  document.open(); document.write(html); document.close();
});`;

/**
 * The page a browser opens: the title, the section as it stands, and the script that keeps it current.
 *
 * @example
 * dashboardPage('load chat-turns (smoke)', await liveSection(state.view()));
 */
export function dashboardPage(title: string, section: string): string {
  return page(
    `${title}: live`,
    `<h1>${esc(title)}</h1><p class="muted">Live: updated once a period while the run goes; the report page takes its place at the end.</p>${section}`,
    SCRIPT,
  );
}
