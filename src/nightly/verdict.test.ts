import { describe, expect, it } from 'vitest';
import { syntheticHistory, syntheticNights } from '../../tests/synthetic-history.js';
import type { NightMetric } from './metrics.js';
import { noisyNights, seeded } from './noise.js';
import { BAND, changeText, judge, judgeMetric, verdictLines } from './verdict.js';

const scaled = (night: Record<string, NightMetric>, name: string, by: number) => ({
  ...night,
  [name]: { ...(night[name] as NightMetric), value: (night[name] as NightMetric).value * by },
});

describe('the regression verdict', () => {
  it('raises no false alarm on 100 seeded histories of pure noise', () => {
    const alarms = Array.from({ length: 100 }, (_, i) => {
      const nights = noisyNights(seeded(7000 + i), BAND.baseline + 1);
      return judge(nights.slice(0, -1), nights.at(-1) as Record<string, NightMetric>);
    }).filter((v) => v.status === 'regressed');
    expect(alarms).toEqual([]);
  });

  it('catches a planted latency regression and names only that metric', () => {
    const nights = noisyNights(seeded(11), BAND.baseline + 1);
    const base = nights.slice(0, -1);
    // The latency with the narrowest band in this history, tripled: a real slowdown, outside its band.
    const bands = judge(base, nights.at(-1) as Record<string, NightMetric>).metrics.filter((m) => m.unit === 'ms');
    const quiet = bands.sort((x, y) => (x.high as number) / (x.median as number) - (y.high as number) / (y.median as number))[0]?.metric as string;
    const v = judge(base, scaled(nights.at(-1) as Record<string, NightMetric>, quiet, 3));
    expect(v.status).toBe('regressed');
    expect(v.metrics.filter((m) => m.status === 'regressed').map((m) => m.metric)).toEqual([quiet]);
    expect(v.kinds).toEqual(['band']);
  });

  it('catches an error rate that jumps from a few in two thousand to five percent', () => {
    const nights = noisyNights(seeded(12), BAND.baseline + 1);
    const tonight = {
      ...(nights.at(-1) as Record<string, NightMetric>),
      'http_req_failed rate': { value: 0.05, unit: 'ratio', better: 'lower' } as NightMetric,
    };
    const v = judge(nights.slice(0, -1), tonight);
    expect(v.metrics.find((m) => m.metric === 'http_req_failed rate')?.status).toBe('regressed');
  });

  it('catches throughput that drops by a third, since higher is better there', () => {
    const nights = noisyNights(seeded(13), BAND.baseline + 1);
    const v = judge(nights.slice(0, -1), scaled(nights.at(-1) as Record<string, NightMetric>, 'iterations per_s', 0.66));
    expect(v.metrics.find((m) => m.metric === 'iterations per_s')?.status).toBe('regressed');
    expect(v.status).toBe('regressed');
  });

  it('calls a lost event regressed when none were ever lost', () => {
    const nights = noisyNights(seeded(14), BAND.baseline + 1);
    const tonight = { ...(nights.at(-1) as Record<string, NightMetric>), 'events_lost count': { value: 1, unit: 'count', better: 'lower' } as NightMetric };
    expect(judge(nights.slice(0, -1), tonight).metrics.find((m) => m.metric === 'events_lost count')?.status).toBe('regressed');
  });

  it('calls a halved latency improved, not regressed', () => {
    const v = judgeMetric('op p95', { value: 50, unit: 'ms', better: 'lower' }, [100, 101, 99, 102, 98, 100, 97, 103]);
    expect(v).toMatchObject({ status: 'improved', median: 100 });
  });

  it('gives no verdict with fewer earlier runs than the minimum, and says so', () => {
    const nights = noisyNights(seeded(15), BAND.minBaseline);
    const v = judge(nights.slice(0, -1), scaled(nights.at(-1) as Record<string, NightMetric>, 'iterations per_s', 0.1));
    expect(v.status).toBe('no baseline');
    expect(verdictLines(v)[0]).toBe(`verdict: no baseline yet (${BAND.minBaseline - 1} earlier runs of this workload; ${BAND.minBaseline} needed)`);
  });

  it('prints the regressed metric with its value, the baseline median and the band', () => {
    const v = judge(
      [[5], [5.2], [4.9], [5.1], [5], [5], [4.8], [5.3]].map(([x]) => ({ 'chat p95': { value: x as number, unit: 'ms', better: 'lower' } as NightMetric })),
      {
        'chat p95': { value: 9, unit: 'ms', better: 'lower' },
      },
    );
    expect(verdictLines(v)).toEqual([
      'verdict: regressed against 8 earlier runs (0 of 1 metrics within their band)',
      expect.stringMatching(/^ {2}regressed chat p95: 9\.00 ms \(baseline median 5\.00 ms, band \d\.\d\d ms … \d\.\d\d ms\)$/),
    ]);
  });
});

describe('the verdict on drift and pinned baselines', () => {
  const P95 = 'http_req_duration p95';
  /** Judges the last night of a synthetic history against the nights before it, with their labels. */
  const judgeLast = (o: Parameters<typeof syntheticHistory>[0]) => {
    const runs = syntheticHistory(o);
    return judge(
      runs.slice(0, -1).map((r) => r.metrics ?? {}),
      runs.at(-1)?.metrics ?? {},
      BAND,
      runs,
    );
  };

  it('names a drift with its size, the night it started, its levels and its change points', () => {
    const v = judgeLast({ seed: 7, nights: 61, creep: { from: 20, perNight: 0.02 } });
    expect(v.status).toBe('regressed');
    expect(v.kinds).toEqual(['drift']);
    expect(v.metrics.filter((m) => m.kinds).map((m) => [m.metric, m.kinds])).toEqual([['http_req_duration p95', ['drift']]]);
    const lines = verdictLines(v);
    expect(lines[0]).toMatch(/^verdict: regressed against 14 earlier runs \(3 of 3 metrics within their band, 1 drifted over 61 runs\)$/);
    expect(lines[1]).toMatch(
      /^ {2}regressed http_req_duration p95: drifted \+[\d.]+ % since night 2026-11-0\d \(run 2\d of 61\), [\d.]+ ms → [\d.]+ ms; change points? at run 2\d \(2026-11-0\d\)(, run \d+ \(2026-\d\d-\d\d\))*$/,
    );
    expect(lines).toHaveLength(2);
  });

  it('says nothing of drift on a history of pure noise, and gives no verdict at all before the baseline is long enough', () => {
    const quiet = judgeLast({ seed: 8, nights: 61 });
    expect(quiet.status).toBe('unchanged');
    expect(quiet.kinds).toBeUndefined();
    expect(quiet.metrics.every((m) => m.drift === undefined)).toBe(true);
    expect(verdictLines(quiet)).toEqual(['verdict: unchanged against 14 earlier runs (3 of 3 metrics within their band)']);
    const young = judgeLast({ seed: 9, nights: BAND.minBaseline, step: { at: 3, by: 3 } });
    expect(young).toMatchObject({ status: 'no baseline' });
    expect(young.metrics.every((m) => m.drift === undefined && m.changePoints === undefined)).toBe(true);
  });

  it('judges tonight against the newest run of each tag, one line per tag, and a level worse than a tag regressed', () => {
    // Level steps up 20 % at night 40: 1.4 was pinned before it, 1.5 after it (and an older 1.5 before it, superseded).
    const v = judgeLast({ seed: 3, nights: 61, step: { at: 40, by: 1.2 }, tags: { 10: '1.5', 30: '1.4', 50: '1.5' } });
    expect(v.tags?.map((t) => [t.tag, t.at.run, t.status])).toEqual([
      ['1.4', 31, 'regressed'],
      ['1.5', 51, 'unchanged'],
    ]);
    const lines = verdictLines(v);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}vs 1\.4 \(night 2026-11-12, run 31 of 61\): regressed: http_req_duration p95 \+\d+\.\d % \(\d+ ms → \d+ ms\); 2 of 3 metrics within their floor$/,
      ),
    );
    expect(lines).toContainEqual('  vs 1.5 (night 2026-12-02, run 51 of 61): unchanged: 3 of 3 metrics within their floor');
    // Drift is judged since the newest pin (1.5, after the step), so only the older tag still calls it regressed.
    expect(v.metrics.find((m) => m.metric === P95)).toMatchObject({ status: 'regressed', band: 'unchanged', kinds: ['tag'] });
  });

  it('takes a pinned run as accepting its level: drift is judged since the newest pin, and a creep after it still counts', () => {
    const unpinned = judgeLast({ seed: 3, nights: 61, step: { at: 30, by: 1.3 } });
    expect(unpinned.metrics.find((m) => m.metric === P95)?.kinds).toEqual(['drift']);
    const accepted = judgeLast({ seed: 3, nights: 61, step: { at: 30, by: 1.3 }, tags: { 40: '1.5' } });
    expect(accepted.status).toBe('unchanged');
    const creepAfter = judgeLast({ seed: 3, nights: 61, step: { at: 10, by: 1.3 }, tags: { 15: '1.5' }, creep: { from: 25, perNight: 0.02 } });
    expect(creepAfter.metrics.find((m) => m.metric === P95)?.kinds).toContain('drift');
  });

  it('judges a tag by its level, not by the one night it was pinned on', () => {
    // The tagged night was a fast one: 30 % below its level. Tonight's level is the same as the tag's.
    const runs = syntheticHistory({ seed: 4, nights: 40, tags: { 20: '1.4' } });
    const night = runs[20]?.metrics?.[P95] as NightMetric;
    const fast = runs.map((r, i) => (i === 20 ? { ...r, metrics: { ...r.metrics, [P95]: { ...night, value: night.value * 0.7 } } } : r));
    const v = judge(
      fast.slice(0, -1).map((r) => r.metrics ?? {}),
      fast.at(-1)?.metrics ?? {},
      BAND,
      fast,
    );
    expect(v.tags?.[0]).toMatchObject({ tag: '1.4', status: 'unchanged' });
  });

  it('writes a change as the reader weighs it', () => {
    expect(changeText(100, 138, 'ms')).toBe('+38.0 %');
    expect(changeText(50, 40, 'per_s')).toBe('-20.0 %');
    expect(changeText(100, 250, 'ms')).toBe('+150 %');
    expect(changeText(0.001, 0.009, 'ratio')).toBe('+0.80 pp');
    expect(changeText(0, 3, 'count')).toBe('+3.0');
  });

  it('knows runs by number when it is given no labels', () => {
    const history = syntheticNights({ seed: 7, nights: 61, creep: { from: 20, perNight: 0.02 } });
    const v = judge(history.slice(0, -1), history.at(-1) as Record<string, NightMetric>);
    expect(verdictLines(v)[1]).toMatch(/drifted \+[\d.]+ % since \(run 2\d of 61\)/);
    expect(v.tags).toEqual([]);
  });
});
