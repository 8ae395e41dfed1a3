// A failing and a passing load page opened in the system Chromium at 1400 × 900, as a reader opens them: the verdict
// and each failed SLO are in the first viewport, the page is no wider than the window, and every plot has both axes
// and a legend. The pages are written by the report writer itself from a run's figures and its samples' timeline.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { K6Summary } from '../src/core/summary.js';
import type { Delivery } from '../src/load/delivery.js';
import { writeRunReport } from '../src/load/finish-run.js';
import { addSample, emptyTally, type Timeline, timelineOf } from '../src/load/timeline.js';

const executable =
  process.env.DIALTONE_CHROMIUM || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
const VIEWPORT = { width: 1400, height: 900 };
const T0 = Date.UTC(2026, 10, 27, 16, 0, 0);

/** Twenty seconds of chat-turns at 5 conversations/s; chat.respond takes `respondMs`. */
function timeline(respondMs: number): Timeline {
  const tally = emptyTally([
    { key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<500'] },
    { key: 'http_req_failed', expressions: ['rate<0.01'] },
    { key: 'checks', expressions: ['rate>0.99'] },
  ]);
  for (let s = 0; s < 20; s++) {
    addSample(tally, { metric: 'vus', type: 'gauge', timeMs: T0 + s * 1000, value: respondMs > 100 ? 19 : 2, tags: {} });
    for (let i = 0; i < 5; i++) {
      const t = T0 + s * 1000 + i * 200;
      addSample(tally, { metric: 'iterations', type: 'counter', timeMs: t, value: 1, tags: {} });
      for (const [op, ms] of [
        ['chat.create', 2],
        ['chat.respond', respondMs],
        ['chat.close', 3],
      ] as const) {
        const tags = { op };
        addSample(tally, { metric: 'http_reqs', type: 'counter', timeMs: t, value: 1, tags });
        addSample(tally, { metric: 'http_req_duration', type: 'trend', timeMs: t, value: ms * (1 + ((s * 5 + i) % 7) / 50), tags });
        addSample(tally, { metric: 'http_req_failed', type: 'rate', timeMs: t, value: 0, tags });
        addSample(tally, { metric: 'checks', type: 'rate', timeMs: t, value: 1, tags });
      }
    }
  }
  return timelineOf(tally) as Timeline;
}

const trend = (p95: number) => ({ avg: p95 * 0.9, min: p95 * 0.5, med: p95 * 0.95, 'p(90)': p95 * 0.98, 'p(95)': p95, 'p(99)': p95 * 1.05, max: p95 * 1.2 });
const summary = (respondP95: number): K6Summary =>
  ({
    metrics: {
      iterations: { count: 100, rate: 5 },
      vus: { value: 0, min: 0, max: 19 },
      http_reqs: { count: 300, rate: 15 },
      'http_reqs{op:chat.respond}': { count: 100, rate: 5, thresholds: { 'count>0': false } },
      'http_req_duration{op:chat.respond}': { ...trend(respondP95), thresholds: { 'p(95)<500': respondP95 >= 500 } },
      'http_req_duration{op:chat.create}': { ...trend(2), thresholds: { 'p(95)<500': false } },
      'http_req_duration{op:chat.close}': { ...trend(3), thresholds: { 'p(95)<500': false } },
      http_req_failed: { passes: 0, fails: 300, value: 0, thresholds: { 'rate<0.01': false } },
      checks: { passes: 300, fails: 0, value: 1, thresholds: { 'rate>0.99': false } },
    },
  }) as unknown as K6Summary;

const delivery: Delivery = {
  delivered: true,
  short_by: [],
  asked_rate: 5,
  executor: 'constant-arrival-rate',
  delivered_rate: 5,
  iterations: 100,
  dropped: 0,
  dropped_share: 0,
  requests_per_s: 15,
  peak_vus: 19,
  max_vus: 36,
  vus_exhausted: false,
  generator_cpu_avg_cores: 0.2,
  generator_cpu_peak_cores: 0.5,
  generator_cpu_seconds: 4,
  generator_saturated_seconds: 0,
  cores: 2,
  machine_busy: 0.4,
  start_lag_p99_ms: null,
  max_start_lag_ms: null,
};

/** Writes the load page of a run whose chat.respond p95 is `respondP95`, and returns its path. */
async function loadPage(name: string, respondP95: number): Promise<string> {
  const base = mkdtempSync(join(tmpdir(), `dialtone-page-${name}-`));
  const dir = join(base, 'load', 'chat-turns');
  mkdirSync(dir, { recursive: true });
  await writeRunReport({
    scenario: 'chat-turns',
    workloadName: 'smoke',
    workload: 'smoke',
    target: 'reference',
    engine: { kind: 'builtin', version: 'v0.1.0' },
    started: T0,
    durationMs: 20_000,
    exitCode: respondP95 >= 500 ? 99 : 0,
    summary: summary(respondP95),
    dir,
    reportDir: base,
    secrets: [],
    record: true,
    delivery,
    expectations: {
      slo_set: 'defaults',
      slos: Object.entries(summary(respondP95).metrics).flatMap(([key, m]) =>
        m.thresholds ? [{ key, expressions: Object.keys(m.thresholds), source: 'default' as const }] : [],
      ),
      workload: { rate: { value: 5, source: 'default' } },
    },
    timeline: timeline(respondP95),
  });
  return join(dir, 'index.html');
}

let browser: Browser;
beforeAll(async () => {
  if (executable) browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** What a reader sees of a page in the window: where the verdict and failed SLOs end, and each plot's parts. */
async function look(path: string) {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(`file://${path}`);
    return await page.evaluate(() => {
      const bottom = (e: Element | null) => (e ? e.getBoundingClientRect().bottom + window.scrollY : Number.POSITIVE_INFINITY);
      return {
        verdict: document.querySelector('.verdict-line')?.textContent ?? '',
        verdictBottom: bottom(document.querySelector('.verdict-line')),
        failed: [...document.querySelectorAll('.failed-slo')].map((e) => ({ text: e.textContent ?? '', bottom: bottom(e) })),
        loadBottom: bottom(document.querySelector('.verdict .load')),
        scrollWidth: document.documentElement.scrollWidth,
        plots: [...document.querySelectorAll('figure.plot')].map((f) => ({
          name: f.getAttribute('data-plot'),
          x: f.querySelector('[aria-label^="X-axis titled"]') !== null,
          y: f.querySelector('[aria-label^="Y-axis titled"]') !== null,
          legend: [...f.querySelectorAll('.role-legend .role-legend-label text')].map((t) => t.textContent),
          width: f.querySelector('svg')?.getBoundingClientRect().width ?? 0,
        })),
      };
    });
  } finally {
    await page.close();
  }
}

describe.skipIf(!executable)('a load page in Chromium at 1400 × 900', () => {
  it('shows a failing run’s verdict, its failed SLO with threshold, value and source, and the load delivered in the first viewport', async () => {
    const seen = await look(await loadPage('fail', 736.56));
    expect(seen.verdict).toBe('FAIL 1 of 6 SLOs failed (exit 99)');
    expect(seen.failed.map((f) => f.text)).toEqual([
      'http_req_duration{op:chat.respond} p(95)<500 was 736.56 ms · the default SLO of chat-turns (scenarios/chat-turns.defaults.ts)',
    ]);
    expect(Math.max(seen.verdictBottom, ...seen.failed.map((f) => f.bottom), seen.loadBottom)).toBeLessThanOrEqual(VIEWPORT.height);
  }, 60_000);

  it('shows a passing run’s verdict in the first viewport', async () => {
    const seen = await look(await loadPage('pass', 15.36));
    expect(seen.verdict).toBe('PASS all 6 SLOs held on the load asked for');
    expect(seen.failed).toEqual([]);
    expect(seen.loadBottom).toBeLessThanOrEqual(VIEWPORT.height);
  }, 60_000);

  it('gives every plot both axes and a legend, and fits the window without scrolling sideways', async () => {
    for (const name of ['fail', 'pass']) {
      const seen = await look(await loadPage(`${name}-plots`, name === 'fail' ? 736.56 : 15.36));
      expect(seen.scrollWidth).toBeLessThanOrEqual(VIEWPORT.width);
      // The breached plot comes right after the load it ran under.
      expect(seen.plots.map((p) => p.name)).toEqual([
        'throughput',
        'vus',
        ...(name === 'fail' ? ['latency http_req_duration{op:chat.respond}'] : []),
        'errors',
        'rates',
        'latency http_req_duration{op:chat.close}',
        'latency http_req_duration{op:chat.create}',
        ...(name === 'fail' ? [] : ['latency http_req_duration{op:chat.respond}']),
        'distribution',
      ]);
      for (const p of seen.plots) {
        expect(p, `${name}: ${p.name}`).toMatchObject({ x: true, y: true });
        expect(p.legend.length, `${name}: ${p.name}`).toBeGreaterThan(0);
        expect(p.width).toBeLessThanOrEqual(VIEWPORT.width / 2);
      }
      const respond = seen.plots.find((p) => p.name === 'latency http_req_duration{op:chat.respond}');
      expect(respond?.legend).toEqual(
        name === 'fail' ? ['p50', 'p95', 'p99', 'SLO p(95)<500', 'SLO breached in the interval'] : ['p50', 'p95', 'p99', 'SLO p(95)<500'],
      );
    }
  }, 120_000);
});
