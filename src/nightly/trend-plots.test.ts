import { describe, expect, it } from 'vitest';
import { syntheticHistory } from '../../tests/synthetic-history.js';
import type { K6Summary } from '../core/summary.js';
import type { LoadResult } from '../load/page.js';
import { nightlySection, trendSpec } from './trend-plots.js';
import { BAND, judge } from './verdict.js';

const P95 = 'http_req_duration p95';
/** Tonight's verdict over a synthetic history, as the run's finishing step (src/load/finish-run.ts) gives it, with the nights the page plots. */
const judged = (runs: LoadResult[]) => ({
  verdict: judge(
    runs.slice(0, -1).map((r) => r.metrics ?? {}),
    runs.at(-1)?.metrics ?? {},
    BAND,
    runs,
  ),
  nights: runs,
});
type Layer = { mark: { type: string; color?: string; strokeWidth?: number }; data: { values: { night?: string }[] } };
const rules = (spec: ReturnType<typeof trendSpec>) => ((spec as unknown as { layer: Layer[] }).layer ?? []).filter((l) => l.mark.type === 'rule');
/** A summary whose latency has a threshold, so the page plots it. */
const summary: K6Summary = { metrics: { http_req_duration: { 'p(95)': 1, thresholds: { 'p(95)<500': false } } as K6Summary['metrics'][string] } };

describe('the trend plots and the drift', () => {
  it('draws a dashed rule at each change point, the one where the drift started in the verdict colour', () => {
    const { verdict, nights } = judged(syntheticHistory({ seed: 7, nights: 61, creep: { from: 20, perNight: 0.02 } }));
    const m = verdict.metrics.find((x) => x.metric === P95);
    if (!m?.drift || !m.changePoints) throw new Error('the creep drifted in src/nightly/verdict.test.ts');
    const spec = trendSpec(m, nights);
    const drawn = rules(spec);
    expect(drawn.map((l) => l.data.values[0]?.night)).toEqual(m.changePoints.map((c) => c.started_at));
    expect(drawn.filter((l) => l.mark.color === '#cf222e').map((l) => l.data.values[0]?.night)).toEqual([m.drift.since.started_at]);
    expect((spec as unknown as { title: { subtitle: string } }).title.subtitle).toMatch(/^regressed · drifted \+[\d.]+ % since 2026-11-0\d$/);
  });

  it('draws no rule for a metric whose level never changed', () => {
    const { verdict, nights } = judged(syntheticHistory({ seed: 8, nights: 61 }));
    const m = verdict.metrics.find((x) => x.metric === P95);
    expect(m?.changePoints).toEqual([]);
    expect(rules(trendSpec(m ?? verdict.metrics[0]!, nights))).toEqual([]);
  });

  it('puts the drift and each pinned baseline on the page, and the change points on its SVG plot', async () => {
    const { verdict, nights } = judged(syntheticHistory({ seed: 7, nights: 61, creep: { from: 20, perNight: 0.02 }, tags: { 10: '1.4' } }));
    const html = await nightlySection(verdict, nights, summary);
    expect(html).toMatch(/<li>regressed http_req_duration p95: drifted \+[\d.]+ % since night 2026-11-0\d \(run 2\d of 61\)/);
    expect(html).toMatch(/<li>vs 1\.4 \(night 2026-10-23, run 11 of 61\): regressed: http_req_duration p95 \+/);
    expect(html).toContain('<th>Drift</th>');
    const points = verdict.metrics.find((x) => x.metric === P95)?.changePoints?.length ?? 0;
    expect(points).toBeGreaterThan(0);
    expect(html.match(/aria-roledescription="rule mark"/g)).toHaveLength(points);
  });

  it('collapses the trend plots, and the verdict without a baseline, to one line each while the workload has fewer than three runs', async () => {
    const { verdict, nights } = judged(syntheticHistory({ seed: 9, nights: 2 }));
    const html = await nightlySection(verdict, nights, summary);
    expect(html).toContain('<p class="muted trend-collapsed">Trend plots: 2 runs of this workload so far; they are drawn from the 3rd.</p>');
    expect(html).not.toContain('<svg');
    expect(html).toContain('<p class="muted">No baseline yet: 1 earlier run of this workload, 7 needed before a metric is judged.</p>');
  });
});
