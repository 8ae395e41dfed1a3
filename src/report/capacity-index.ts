// Links to the latest capacity report of each scenario, for the reports index and the load pages.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { esc } from './html.js';

/** The part of capacity.json the links show. */
interface CapacitySummary {
  scenario: string;
  unit: string;
  /** Present for a closed-model search: its figure is things held, not a rate. */
  model?: { kind: 'closed' };
  started_at: string;
  analysis: { limited_by: string; max_sustainable_rate: number | null };
}

function read(path: string): CapacitySummary | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as CapacitySummary;
  } catch {
    return undefined;
  }
}

const finding = (c: CapacitySummary) =>
  c.analysis.limited_by === 'load-generator'
    ? 'load generator was the limit (no target capacity)'
    : c.analysis.max_sustainable_rate === null
      ? 'no step held'
      : c.model
        ? `${c.analysis.max_sustainable_rate.toFixed(0)} ${c.unit} held${c.analysis.limited_by === 'none' ? ' (nothing broke)' : ''}`
        : `${c.analysis.max_sustainable_rate.toFixed(2)} ${c.unit}/s sustained${c.analysis.limited_by === 'none' ? ' (nothing broke)' : ''}`;

/**
 * The latest capacity report of one scenario under a reports dir, as a link relative to `from`
 * (the linking page's folder, relative to the reports dir), or undefined when there is none.
 *
 * @example
 * latestCapacityLink('reports', 'chat-turns', '../..') // { href: '../../capacity/chat-turns/index.html', text: '2.50 conversations/s sustained' }
 */
export function latestCapacityLink(reportDir: string, scenario: string, from = '.'): { href: string; text: string } | undefined {
  const c = read(join(reportDir, 'capacity', scenario, 'capacity.json'));
  return c ? { href: `${from}/capacity/${scenario}/index.html`, text: finding(c) } : undefined;
}

/** The reports index's capacity section: one row per scenario with a capacity report. */
export function capacitySection(reportDir: string): string {
  const dir = join(reportDir, 'capacity');
  const rows = (existsSync(dir) ? readdirSync(dir).sort() : [])
    .map((s) => read(join(dir, s, 'capacity.json')))
    .filter((c): c is CapacitySummary => c !== undefined)
    .map(
      (c) =>
        `<tr><td><a href="capacity/${esc(c.scenario)}/index.html">${esc(c.scenario)}</a></td><td>${esc(finding(c))}</td><td>${esc(c.analysis.limited_by)}</td><td class="muted">${esc(c.started_at)}</td></tr>`,
    );
  return `<h2>Capacity</h2>${
    rows.length
      ? `<table><tr><th>Scenario</th><th>Found</th><th>Limited by</th><th>Run</th></tr>${rows.join('')}</table>`
      : '<p class="muted">No capacity run yet (<code>dialtone capacity SCENARIO</code>).</p>'
  }`;
}
