import { describe, expect, it } from 'vitest';
import { HistogramRecorder, intervalKeysOf } from '../core/histogram-series.js';
import { timelineOfHistograms } from './timeline-series.js';

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

/** One segment: `perSecond` requests a second for `seconds` seconds, each `ms` long, with `vus` VUs, from `startS`. */
function segment(o: { startS: number; seconds: number; perSecond: number; ms: number; vus: number; cap?: number }) {
  const rec = new HistogramRecorder(o.cap);
  const tags = { op: 'chat.respond' };
  for (let s = 0; s < o.seconds; s++) {
    const t = T0 + (o.startS + s) * 1000;
    rec.add('gauge', t, o.vus, ['vus'], intervalKeysOf('vus', {}, []));
    for (let i = 0; i < o.perSecond; i++) {
      rec.add('counter', t + i, 1, ['http_reqs'], intervalKeysOf('http_reqs', tags, []));
      rec.add('trend', t + i, o.ms, ['http_req_duration'], intervalKeysOf('http_req_duration', tags, []));
      rec.add('rate', t + i, i % 10 === 0 ? 1 : 0, ['http_req_failed'], intervalKeysOf('http_req_failed', tags, []));
    }
  }
  return rec.toFile();
}

describe('the run over time from histograms', () => {
  it('lays segments on one clock: requests per second and VUs add up, latencies join, the error rate is the share of both', () => {
    const tl = timelineOfHistograms(
      [segment({ startS: 0, seconds: 10, perSecond: 20, ms: 100, vus: 3 }), segment({ startS: 1, seconds: 10, perSecond: 30, ms: 300, vus: 4 })],
      [],
    );
    expect(tl?.interval_s).toBe(1);
    expect(tl?.points).toHaveLength(11);
    const mid = tl?.points[5];
    expect(mid?.requests_per_s).toBe(50);
    expect(mid?.vus).toBe(7);
    expect(mid?.rates.http_req_failed).toBeCloseTo(5 / 50);
    const p50 = mid?.trends['http_req_duration{op:chat.respond}']?.stats['p(50)'] as number;
    expect(Math.abs(p50 / 300 - 1)).toBeLessThanOrEqual(0.01);
    expect(tl?.started_at).toBe(new Date(T0).toISOString());
  });

  it('reads rates per second on intervals the series doubled, so a long run keeps its figures', () => {
    const tl = timelineOfHistograms([segment({ startS: 0, seconds: 40, perSecond: 20, ms: 100, vus: 3, cap: 8 })], []);
    expect(tl?.interval_s).toBe(8);
    expect(tl?.points.map((p) => p.t)).toEqual([0, 8, 16, 24, 32]);
    expect(tl?.points[1]?.requests_per_s).toBe(20);
  });
});
