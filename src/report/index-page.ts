import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capacitySection } from './capacity-index.js';
import { badge, esc, page, runBadge } from './html.js';

interface LoadIndexEntry {
  scenario: string;
  started_at: string;
  passed: boolean;
  /** A stop signal cut the run short: neither passed nor failed. */
  interrupted?: unknown;
  profile: string;
  headline: string[];
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Rebuilds `DIR/index.html`: the latest conformance run and each load scenario's latest run. */
export function writeIndexPage(dir: string): string {
  const parts: string[] = ['<h1>dialtone reports</h1>'];
  const conf = readJson<{
    gate: string;
    target: { name: string };
    started_at: string;
    totals: Record<string, number>;
    interrupted?: unknown;
    selftest?: { mutation_score: number; caught: number; total: number };
  }>(join(dir, 'conformance', 'results.json'));
  parts.push('<h2>Conformance</h2>');
  if (conf) {
    const t = conf.totals;
    parts.push(
      `<p>${conf.interrupted ? badge('interrupted') : badge(conf.gate)} <a href="conformance/index.html">${esc(conf.target.name)}</a> <span class="muted">${esc(conf.started_at)}</span></p><p class="totals">${Object.entries(
        t,
      )
        .map(([k, v]) => `<span>${badge(k)} ${v}</span>`)
        .join(
          '',
        )}</p>${conf.selftest ? `<p>Defect self-test: mutation score ${(conf.selftest.mutation_score * 100).toFixed(0)}% (${conf.selftest.caught}/${conf.selftest.total} defects caught exactly)</p>` : ''}`,
    );
  } else parts.push('<p class="muted">No conformance run yet.</p>');
  parts.push('<h2>Load</h2>');
  const loadDir = join(dir, 'load');
  const scenarios = existsSync(loadDir) ? readdirSync(loadDir).sort() : [];
  const rows = scenarios
    .map((s) => readJson<LoadIndexEntry>(join(loadDir, s, 'result.json')))
    .filter((e): e is LoadIndexEntry => e !== undefined)
    .map(
      (e) =>
        `<tr><td><a href="load/${esc(e.scenario)}/index.html">${esc(e.scenario)}</a></td><td>${runBadge(e)}</td><td>${esc(e.profile)}</td><td>${e.headline.map(esc).join('<br>')}</td><td class="muted">${esc(e.started_at)}</td></tr>`,
    );
  parts.push(
    rows.length
      ? `<table><tr><th>Scenario</th><th>Outcome</th><th>Profile</th><th>Headline</th><th>Run</th></tr>${rows.join('')}</table>`
      : '<p class="muted">No load run yet.</p>',
  );
  parts.push(capacitySection(dir));
  const path = join(dir, 'index.html');
  writeFileSync(path, page('dialtone reports', parts.join('\n')));
  return path;
}
