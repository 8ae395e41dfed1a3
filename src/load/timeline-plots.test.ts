import { describe, expect, it } from 'vitest';
import { addSample, emptyTally, timelineOf } from './timeline.js';
import { sloKeysOf, timelineSection, timelineSpecs } from './timeline-plots.js';

const T0 = Date.parse('2026-11-27T16:00:00.000Z');
const SLOS = sloKeysOf([
  { metric: 'http_req_duration{op:chat.respond}', expression: 'p(95)<500' },
  { metric: 'http_req_failed', expression: 'rate<0.01' },
  { metric: 'checks', expression: 'rate>0.99' },
]);

/** Six seconds of chat.respond, over its SLO from the fourth. */
function timeline() {
  const tally = emptyTally(SLOS);
  for (let s = 0; s < 6; s++)
    for (let r = 0; r < 5; r++) {
      const timeMs = T0 + s * 1000 + r;
      const tags = { op: 'chat.respond' };
      addSample(tally, { metric: 'http_reqs', type: 'counter', timeMs, value: 1, tags });
      addSample(tally, { metric: 'http_req_duration', type: 'trend', timeMs, value: s >= 3 ? 700 : 20 + r, tags });
      addSample(tally, { metric: 'http_req_failed', type: 'rate', timeMs, value: 0, tags });
      addSample(tally, { metric: 'checks', type: 'rate', timeMs, value: 1, tags });
      addSample(tally, { metric: 'vus', type: 'gauge', timeMs, value: 3, tags: {} });
    }
  const tl = timelineOf(tally);
  if (!tl) throw new Error('the run has samples');
  return tl;
}

type Layer = { mark: { type: string }; data: { values: Record<string, unknown>[] }; encoding: { color?: { legend?: unknown; scale: { domain: string[] } } } };
const layers = (spec: unknown) => (spec as { layer: Layer[] }).layer;

describe('the plots of the run over time', () => {
  it('draws throughput, VUs, every plot with a breach, error rate, the judged rates, latency per operation and the distribution', () => {
    expect(timelineSpecs(timeline(), SLOS).map((s) => s.name)).toEqual([
      'throughput',
      'vus',
      // Breached, so right after the load it ran under.
      'latency http_req_duration{op:chat.respond}',
      'errors',
      'rates',
      'distribution',
    ]);
  });

  it('draws each SLO as a dashed line on its plot and shades the intervals that breached it', () => {
    const latency = timelineSpecs(timeline(), SLOS).find((s) => s.name.startsWith('latency'));
    const ls = layers(latency?.spec);
    expect(ls.find((l) => l.mark.type === 'rule')?.data.values).toEqual([{ series: 'SLO p(95)<500', bound: 500, value: 500 }]);
    expect(ls.find((l) => l.mark.type === 'rect')?.data.values).toEqual([{ from: 3, to: 6, series: 'SLO breached in the interval' }]);
  });

  it('marks a stretch of the run on every plot over time, named in its legend, without taking it for a breach', () => {
    const specs = timelineSpecs(timeline(), SLOS, [{ from: 1, to: 2.5, label: 'the gate ran under this load' }]);
    for (const { name, spec } of specs.filter((x) => x.name !== 'distribution')) {
      expect(layers(spec).find((l) => l.data.values[0]?.series === 'the gate ran under this load')?.data.values, name).toEqual([
        { from: 1, to: 2.5, series: 'the gate ran under this load' },
      ]);
    }
    expect(specs.map((x) => x.name).slice(0, 3)).toEqual(['throughput', 'vus', 'latency http_req_duration{op:chat.respond}']);
  });

  it('gives every plot a colour legend naming each series, even a plot of one', () => {
    for (const { spec } of timelineSpecs(timeline(), SLOS)) {
      const colours = layers(spec).map((l) => l.encoding.color);
      expect(colours.every((c) => c?.legend !== null && (c?.scale.domain.length ?? 0) > 0)).toBe(true);
    }
    const vus = timelineSpecs(timeline(), SLOS).find((s) => s.name === 'vus');
    expect(layers(vus?.spec)[0]?.encoding.color?.scale.domain).toEqual(['active VUs']);
  });

  it('renders each plot as inline SVG with its axes and its legend, nothing fetched', async () => {
    const html = await timelineSection(timeline(), SLOS);
    const figures = html.split('<figure class="plot"').slice(1);
    expect(figures).toHaveLength(6);
    for (const f of figures) {
      expect(f.match(/class="mark-group role-legend"/g)).toHaveLength(1);
      expect(f).toMatch(/aria-label="X-axis titled '[^']+'/);
      expect(f).toMatch(/aria-label="Y-axis titled '[^']+'/);
    }
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(html).toContain('Shaded: the intervals in which http_req_duration{op:chat.respond} p(95)&lt;500 did not hold.');
  });

  it('says in one line why a run without samples has no plots', async () => {
    expect(await timelineSection(undefined, SLOS, 'a test said so')).toBe('<h2>The run over time</h2><p class="muted">Not drawn: a test said so.</p>');
  });
});
