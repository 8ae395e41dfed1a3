import { describe, expect, it } from 'vitest';
import type { NightMetric } from './metrics.js';
import { noisyNights, seeded } from './noise.js';
import { BAND, judge, judgeMetric, verdictLines } from './verdict.js';

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
