import { describe, expect, it } from 'vitest';
import { addSample, emptyTally, type Sample, sloSeries, timelineOf } from './timeline.js';

const T0 = Date.parse('2026-11-27T16:00:00.000Z');
const SLOS = [
  { key: 'http_req_duration{op:chat.respond}', expressions: ['p(95)<500'] },
  { key: 'http_req_failed', expressions: ['rate<0.01'] },
  { key: 'checks', expressions: ['rate>0.99'] },
  { key: 'http_reqs{op:chat.respond}', expressions: ['count>0'] },
];

/** Ten seconds of a run: 4 requests a second, chat.respond slow from second 5, one failed request in second 2. */
function run(): Sample[] {
  const out: Sample[] = [];
  for (let s = 0; s < 10; s++) {
    const at = T0 + s * 1000 + 100;
    out.push({ metric: 'vus', type: 'gauge', timeMs: at, value: s < 5 ? 2 : 6, tags: {} });
    out.push({ metric: 'iterations', type: 'counter', timeMs: at, value: 1, tags: {} });
    if (s === 7) out.push({ metric: 'dropped_iterations', type: 'counter', timeMs: at, value: 3, tags: {} });
    for (let r = 0; r < 4; r++) {
      const op = r === 0 ? 'chat.create' : 'chat.respond';
      const tags = { op, status: '200' };
      out.push({ metric: 'http_reqs', type: 'counter', timeMs: at + r, value: 1, tags });
      out.push({ metric: 'http_req_duration', type: 'trend', timeMs: at + r, value: op === 'chat.respond' && s >= 5 ? 700 + r : 10 + r, tags });
      out.push({ metric: 'http_req_failed', type: 'rate', timeMs: at + r, value: s === 2 && r === 1 ? 1 : 0, tags });
      out.push({ metric: 'checks', type: 'rate', timeMs: at + r, value: 1, tags: { check: 'ok' } });
    }
  }
  return out;
}

const timeline = (maxPoints?: number) => {
  const tally = emptyTally(SLOS);
  for (const s of run()) addSample(tally, s);
  const tl = timelineOf(tally, maxPoints);
  if (!tl) throw new Error('the run has samples');
  return tl;
};

describe('the run over time', () => {
  it('gives requests, iterations and dropped iterations per second, and the most VUs at once, per interval', () => {
    const tl = timeline();
    expect(tl.interval_s).toBe(1);
    expect(tl.started_at).toBe('2026-11-27T16:00:00.000Z');
    expect(tl.points).toHaveLength(10);
    expect(tl.points.map((p) => p.requests_per_s)).toEqual(Array(10).fill(4));
    expect(tl.points.map((p) => p.iterations_per_s)).toEqual(Array(10).fill(1));
    expect(tl.points.map((p) => p.dropped_per_s)).toEqual([0, 0, 0, 0, 0, 0, 0, 3, 0, 0]);
    expect(tl.points.map((p) => p.vus)).toEqual([2, 2, 2, 2, 2, 6, 6, 6, 6, 6]);
  });

  it('reads the error rate per interval from the share of failed requests', () => {
    expect(timeline().points.map((p) => p.rates.http_req_failed)).toEqual([0, 0, 0.25, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('keeps latency percentiles per operation, and the metric every SLO names', () => {
    const p = timeline().points[6];
    expect(Object.keys(p?.trends ?? {}).sort()).toEqual(['http_req_duration{op:chat.create}', 'http_req_duration{op:chat.respond}']);
    expect(p?.trends['http_req_duration{op:chat.respond}']?.count).toBe(3);
    expect(p?.trends['http_req_duration{op:chat.respond}']?.stats['p(95)']).toBeCloseTo(703, -1);
    expect(p?.rates.checks).toBe(1);
  });

  it('joins seconds into longer intervals when the run has more seconds than points', () => {
    const tl = timeline(4);
    expect(tl.interval_s).toBe(3);
    expect(tl.points.map((p) => p.t)).toEqual([0, 3, 6, 9]);
    // The last interval covers one second of the run: its rates are per that second, not per three.
    expect(tl.points.map((p) => p.requests_per_s)).toEqual([4, 4, 4, 4]);
    expect(tl.points[2]?.dropped_per_s).toBe(1);
    expect(tl.points[1]?.vus).toBe(6);
  });

  it('shades the intervals whose own value breached an SLO, and leaves count SLOs to the whole run', () => {
    const series = sloSeries(timeline(), SLOS);
    const latency = series.find((s) => s.key === 'http_req_duration{op:chat.respond}');
    expect(latency?.breaches).toEqual([{ from: 5, to: 10 }]);
    expect(series.find((s) => s.key === 'http_req_failed')?.breaches).toEqual([{ from: 2, to: 3 }]);
    expect(series.find((s) => s.key === 'checks')?.breaches).toEqual([]);
    expect(series.some((s) => s.key === 'http_reqs{op:chat.respond}')).toBe(false);
  });

  it('gives each operation a latency distribution whose shares add up to one', () => {
    const d = timeline().distribution['http_req_duration{op:chat.respond}'] ?? [];
    expect(d.length).toBeGreaterThan(10);
    expect(d.reduce((a, b) => a + b.share, 0)).toBeCloseTo(1, 9);
    expect(d.filter((b) => b.ms > 500).reduce((a, b) => a + b.share, 0)).toBeCloseTo(0.5, 9);
  });

  it('adds up the VUs of processes that ran side by side', () => {
    const tally = emptyTally([]);
    for (const source of [0, 1]) addSample(tally, { metric: 'vus', type: 'gauge', timeMs: T0, value: 5, tags: {}, source });
    expect(timelineOf(tally)?.points[0]?.vus).toBe(10);
  });

  it('has no timeline without a sample', () => {
    expect(timelineOf(emptyTally(SLOS))).toBeUndefined();
  });
});
