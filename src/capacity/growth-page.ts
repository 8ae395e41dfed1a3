// The capacity page's section on when traffic reaches the capacity found: the sentence, then where each figure came from.
import { esc } from '../report/html.js';
import { growthChart } from './charts.js';
import { GROWTH_LEVEL, growthLine, HORIZON_DAYS } from './growth.js';
import type { CapacityResult } from './result.js';

/** One row of the sources table: what, and where it came from. */
const row = (what: string, text: string) => `<tr><th>${esc(what)}</th><td>${esc(text)}</td></tr>`;

/**
 * The section, or nothing when the search set no traffic model's growth beside its capacity.
 *
 * @example
 * await growthSection(result) // '<h2>When traffic reaches it</h2><p class="growth"><b>Traffic growth (daily peaks from …'
 */
export async function growthSection(r: CapacityResult): Promise<string> {
  const h = r.headroom;
  const g = h?.growth;
  if (!h || !g) return '';
  const level = `${Math.round(GROWTH_LEVEL * 100)} %`;
  const learned = h.records
    ? `; learned by dialtone traffic learn from the conversation records of ${h.records.base_url}, ` +
      `${h.records.since} to ${h.records.until} (${h.records.conversations} conversations)`
    : '';
  const leftOut = g.left_out.length ? `; left out ${g.left_out.join(', ')}, which the model's window covers only in part` : '';
  const span = g.first_day ? `, ${g.first_day} to ${g.last_day}` : '';
  const rows = [
    row('daily peaks', `${g.days} whole days${span}: arrivals.daily_peaks (each UTC day's busiest hour) of ${h.file}${leftOut}${learned}`),
    row(
      'capacity',
      `${g.capacity.toPrecision(3)} ${r.unit}/s: this search's maximum sustainable rate ` +
        `(started ${r.started_at} against ${r.target}; capacity.json, analysis.max_sustainable_rate)`,
    ),
  ];
  if (g.shape)
    rows.push(
      row('fit', `${g.shape_reason}; least squares over the days, the slope's ${level} interval from Student's t at ${g.days - 2} degrees of freedom`),
      row(
        'date',
        `where the fitted line meets the capacity; the range is the days on which one day's peak may reach it ` +
          `(the ${level} prediction interval read back at the capacity, which is bounded only when the slope's interval ` +
          `excludes zero); no date past ${g.horizon} (${HORIZON_DAYS} days after the last)`,
      ),
    );
  const line = `<p class="growth"><b>${esc(growthLine(g, r.unit, h.file))}</b></p>`;
  const spec = growthChart(r);
  const chart = spec ? `<figure>${await (await import('../report/chart.js')).renderSvg(spec)}</figure>\n` : '';
  return `<h2>When traffic reaches it</h2>\n${line}\n${chart}<table class="growth-sources">${rows.join('')}</table>\n`;
}
