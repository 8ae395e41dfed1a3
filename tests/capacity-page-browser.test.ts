// A capacity page opened in the system Chromium at 1400 × 900: the search over time, drawn from its steps' histograms
// as the load page draws a run, has both axes and a legend on every plot, marks the step that broke, and fits the
// window. The page is written by the report writer itself from a search's steps and their histogram files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKE_LABEL, searchOverTime } from '../src/capacity/over-time.js';
import { writeCapacityReport } from '../src/capacity/report.js';
import type { CapacityResult } from '../src/capacity/result.js';
import { DEFAULT_SEARCH } from '../src/capacity/search.js';
import { type StepResult, stepHistogramsFile } from '../src/capacity/step.js';
import { steadyKey } from '../src/capacity/wrapper.js';
import { HistogramRecorder, intervalKeysOf } from '../src/core/histogram-series.js';

const executable =
  process.env.DIALTONE_CHROMIUM || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
const VIEWPORT = { width: 1400, height: 900 };
const T0 = Date.UTC(2026, 10, 27, 16, 0, 0);
const SLO = 'http_req_duration{op:chat.respond}';
const STEP_S = 12;

/** A step at `rate` conversations/s whose chat.respond takes `ms`, as the built-in engine writes its histograms. */
function stepFile(work: string, index: number, rate: number, ms: number): void {
  const rec = new HistogramRecorder();
  const judged = [steadyKey(SLO)];
  for (let s = 0; s < STEP_S; s++) {
    const t = T0 + (index * (STEP_S + 2) + s) * 1000;
    rec.add('gauge', t, Math.ceil((rate * ms) / 1000) + 1, ['vus'], intervalKeysOf('vus', {}, []));
    for (let i = 0; i < rate; i++) {
      const at = t + Math.floor((i * 1000) / rate);
      rec.add('counter', at, 1, ['iterations'], intervalKeysOf('iterations', {}, []));
      for (const [op, took] of [
        ['chat.create', 3],
        ['chat.respond', ms * (1 + (i % 7) / 30)],
        ['chat.close', 2],
      ] as const) {
        const tags = { op, dialtone_phase: s < 3 ? 'warmup' : 'steady' };
        rec.add('counter', at, 1, ['http_reqs'], intervalKeysOf('http_reqs', tags, []));
        const mine = s >= 3 && op === 'chat.respond' ? judged : [];
        rec.add('trend', at, took, ['http_req_duration'], intervalKeysOf('http_req_duration', tags, mine));
        rec.add('rate', at, 0, ['http_req_failed'], intervalKeysOf('http_req_failed', tags, []));
      }
    }
  }
  writeFileSync(stepHistogramsFile(work, index), JSON.stringify(rec.toFile()));
}

const step = (index: number, rate: number, p95: number): StepResult => ({
  index,
  stage: 'coarse',
  offered_rate: rate,
  duration_s: STEP_S,
  warmup_s: 3,
  throughput: rate,
  requests_per_s: rate * 3,
  requests_per_iteration: 3,
  error_rate: 0,
  dropped_iterations: 0,
  dropped_share: 0,
  vus_in_use: 5,
  vus_cap: 50,
  generator_cpu_cores: 0.2,
  machine_busy: 0.4,
  mean_iteration_s: 0.5,
  concurrency: rate * 0.5,
  latency: { [SLO]: { p50: p95 * 0.9, p95, p99: p95 * 1.05 } },
  thresholds: [{ metric: steadyKey(SLO), expression: 'p(95)<500', passed: p95 < 500, value: p95 }],
  slo_held: p95 < 500,
  k6_exit_code: p95 < 500 ? 0 : 99,
  wall_s: STEP_S + 2,
});

/** Writes the capacity page of a search of three steps, the last broken, and returns its path. */
async function capacityPagePath(): Promise<string> {
  const base = mkdtempSync(join(tmpdir(), 'dialtone-capacity-page-'));
  const dir = join(base, 'capacity', 'chat-turns');
  const work = join(dir, '.work');
  mkdirSync(work, { recursive: true });
  const plan = [
    [2, 40],
    [4, 90],
    [8, 800],
  ] as const;
  for (const [i, [rate, ms]] of plan.entries()) stepFile(work, i, rate, ms);
  const r: CapacityResult = {
    tool_version: '0.1.0',
    scenario: 'chat-turns',
    unit: 'conversations',
    target: 'reference',
    engine: { kind: 'builtin', version: 'v0.1.0' },
    started_at: new Date(T0).toISOString(),
    search: DEFAULT_SEARCH,
    stopped: 'refined',
    wall_s: 42,
    analysis: {
      max_sustainable_rate: 4,
      limited_by: 'target',
      limit_reason: `at 8/s ${SLO} p(95)<500 broke`,
      knee: null,
      usl: null,
      latency_slo: { metric: SLO },
    } as unknown as CapacityResult['analysis'],
    steps: plan.map(([rate, ms], i) => step(i, rate, ms * 1.1)),
    slos: { slo_set: 'defaults', entries: [{ key: SLO, expressions: ['p(95)<500'], source: 'default' }] },
  } as CapacityResult;
  await writeCapacityReport(dir, r, [], searchOverTime(r, work));
  return join(dir, 'index.html');
}

let browser: Browser;
beforeAll(async () => {
  if (executable) browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!executable)('a capacity page in Chromium at 1400 × 900', () => {
  it('draws the search over time with both axes and a legend on every plot, the broken step marked, no wider than the window', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(`file://${await capacityPagePath()}`);
      const seen = await page.evaluate(() => ({
        heading: [...document.querySelectorAll('h2')].map((h) => h.textContent),
        scrollWidth: document.documentElement.scrollWidth,
        plots: Array.from(document.querySelectorAll('figure.plot')).map((f) => ({
          name: f.getAttribute('data-plot'),
          x: f.querySelector('[aria-label^="X-axis titled"]') !== null,
          y: f.querySelector('[aria-label^="Y-axis titled"]') !== null,
          legend: Array.from(f.querySelectorAll('.role-legend .role-legend-label text')).map((t) => t.textContent),
        })),
      }));
      expect(seen.heading).toContain('The search over time');
      expect(seen.scrollWidth).toBeLessThanOrEqual(VIEWPORT.width);
      expect(seen.plots.map((p) => p.name)).toEqual(expect.arrayContaining(['throughput', 'vus', `latency ${steadyKey(SLO)}`]));
      for (const p of seen.plots) {
        expect(p, `${p.name}`).toMatchObject({ x: true, y: true });
        expect(p.legend.length, `${p.name}`).toBeGreaterThan(0);
      }
      expect(seen.plots.find((p) => p.name === 'throughput')?.legend).toContain(BROKE_LABEL);
    } finally {
      await page.close();
    }
  }, 120_000);
});
