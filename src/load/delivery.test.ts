import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { K6Summary } from '../core/summary.js';
import { deliveryHeadline, EXIT_LOAD_NOT_DELIVERED, exitWithDelivery, judgeDelivery, loadVerdict } from './delivery.js';
import { askedLoad, type GeneratorReport, GeneratorWatch } from './generator-watch.js';

const summary = (iterations: number, dropped: number, peakVUs: number): K6Summary => ({
  metrics: {
    iterations: { count: iterations, rate: iterations / 10 },
    ...(dropped ? { dropped_iterations: { count: dropped, rate: dropped / 10 } } : {}),
    http_reqs: { count: iterations * 6, rate: (iterations * 6) / 10 },
    vus: { value: 0, min: 0, max: peakVUs },
  },
});

const generator = (o: Partial<GeneratorReport> = {}): GeneratorReport => ({
  asked: { rate: 100, kind: 'constant', seconds: 10, maxVUs: 30 },
  insufficientVUs: undefined,
  cpuCores: [0.5, 0.6, 0.4, 0.5],
  machineBusy: [0.5, 0.5],
  cores: 2,
  ...o,
});

describe('askedLoad', () => {
  it('reads the rate, length and VU cap of a constant arrival rate from k6 header line', () => {
    expect(askedLoad('              * chat: 2000.00 iterations/s for 3s (maxVUs: 4, gracefulStop: 5s)')).toEqual({
      rate: 2000,
      kind: 'constant',
      seconds: 3,
      maxVUs: 4,
    });
  });

  it('reads the peak rate and the upper VU bound of a ramp', () => {
    expect(askedLoad('  * chat: Up to 800.00 iterations/s for 6m0s over 3 stages (maxVUs: 50-1000, gracefulStop: 10s)')).toEqual({
      rate: 800,
      kind: 'ramping',
      seconds: 360,
      maxVUs: 1000,
    });
  });

  it('reads looping VUs as a VU-based load without a rate', () => {
    expect(askedLoad('  * voice: 1 looping VUs for 10s (gracefulStop: 20s)')).toEqual({ rate: undefined, kind: 'vus', seconds: 10, maxVUs: 1 });
  });

  it('ignores lines that are not a scenario line', () => {
    expect(askedLoad('     scenarios: (100.00%) 1 scenario, 4 max VUs, 8s max duration (incl. graceful stop):')).toBeUndefined();
  });
});

describe('judgeDelivery', () => {
  it('finds a run that sent what it asked delivered', () => {
    const d = judgeDelivery(summary(1000, 0, 12), generator());
    expect(d.delivered).toBe(true);
    expect(d.short_by).toEqual([]);
    expect(d.delivered_rate).toBe(100);
  });

  it('gives an interrupted run the rate over the time that ran, not over the length it planned', () => {
    // 60 s planned at 5/s, stopped after 10 s with 50 iterations: 5/s over the 10 s (k6's rate), never 50 / 60.
    const planned = generator({ asked: { rate: 5, kind: 'constant', seconds: 60, maxVUs: 30 } });
    expect(judgeDelivery(summary(50, 0, 3), planned, undefined, true).delivered_rate).toBe(5);
    expect(judgeDelivery(summary(50, 0, 3), planned).delivered_rate).toBeCloseTo(50 / 60);
  });

  it('tolerates one dropped iteration in a thousand, and no more', () => {
    expect(judgeDelivery(summary(1999, 2, 12), generator()).short_by).toEqual([]);
    expect(judgeDelivery(summary(1997, 3, 12), generator()).short_by).toEqual(['dropped_iterations']);
  });

  it('finds the VUs exhausted from k6 warning or from the peak reaching maxVUs', () => {
    expect(judgeDelivery(summary(1000, 0, 12), generator({ insufficientVUs: 30 })).short_by).toEqual(['vus_exhausted']);
    expect(judgeDelivery(summary(1000, 0, 30), generator()).short_by).toEqual(['vus_exhausted']);
  });

  it('never finds the VUs of a looping-VU scenario exhausted: it always runs all of them', () => {
    const d = judgeDelivery(summary(4, 0, 2), generator({ asked: { rate: undefined, kind: 'vus', seconds: 10, maxVUs: 2 } }));
    expect(d.delivered).toBe(true);
  });

  it('finds the generator saturated when more than a quarter of its seconds used 90 % of the cores', () => {
    expect(judgeDelivery(summary(1000, 0, 12), generator({ cpuCores: [1.9, 0.5, 0.5, 0.5] })).short_by).toEqual([]);
    expect(judgeDelivery(summary(1000, 0, 12), generator({ cpuCores: [1.9, 1.8, 0.5, 0.5] })).short_by).toEqual(['generator_cpu']);
  });

  it('finds a run in which no iteration completed not delivered', () => {
    expect(judgeDelivery({ metrics: {} }, generator()).short_by).toEqual(['nothing_completed']);
  });

  // The requirement: "a run whose p99 lag exceeds a bound the user can set is marked 'generator behind schedule' (exit 5
  // under dialtone load)". The lag is the built-in engine's iteration_start_lag; without a bound it is only reported.
  it('finds the generator behind schedule when the p99 start lag is over the bound set, and reports it either way', () => {
    const lagged = (p99: number): K6Summary => ({ metrics: { ...summary(1000, 0, 12).metrics, iteration_start_lag: { 'p(99)': p99 } } });
    expect(judgeDelivery(lagged(80), generator(), 50).short_by).toEqual(['behind_schedule']);
    expect(judgeDelivery(lagged(40), generator(), 50).short_by).toEqual([]);
    const unbounded = judgeDelivery(lagged(80), generator());
    expect([unbounded.delivered, unbounded.start_lag_p99_ms, unbounded.max_start_lag_ms]).toEqual([true, 80, null]);
    expect(judgeDelivery(summary(1000, 0, 12), generator(), 50).start_lag_p99_ms).toBeNull();
    const behind = judgeDelivery(lagged(80), generator(), 50);
    expect(deliveryHeadline(behind)[0]).toBe(
      'LOAD NOT DELIVERED: generator behind schedule: iterations started 80.0 ms late at p99 (bound 50.0 ms; spread the load over more machines or cores)',
    );
    expect(deliveryHeadline(behind)[1]).toMatch(/; iterations started 80\.0 ms late at p99$/);
    expect(exitWithDelivery(0, behind)).toBe(EXIT_LOAD_NOT_DELIVERED);
  });
});

describe('deliveryHeadline', () => {
  it('says in numbers what was asked and sent when the load was delivered', () => {
    expect(deliveryHeadline(judgeDelivery(summary(1000, 0, 12), generator()))).toEqual([
      'load delivered: asked 100.0 iterations/s, delivered 100.0/s (1,000 iterations, 600.0 requests/s), 0 dropped (0.0 %); peak 12 of 30 VUs; generator CPU 0.50 cores on average, peak 0.60 of 2; machine 50.0 % busy',
    ]);
  });

  it('leads with every reason when the load fell short', () => {
    const d = judgeDelivery(summary(500, 1500, 30), generator({ insufficientVUs: 30, cpuCores: [1.9, 1.9] }));
    expect(deliveryHeadline(d)).toEqual([
      "LOAD NOT DELIVERED: 1,500 iterations dropped (75.0 % of 2,000; tolerance 0.1 %); VUs exhausted (peak 30 of maxVUs 30; raise --max-vus or spread the load); the generator's CPU was saturated in 2 s (at least 90.0 % of 2 cores; spread the load over more machines)",
      'asked 100.0 iterations/s, delivered 50.0/s (500 iterations, 300.0 requests/s), 1,500 dropped (75.0 %); peak 30 of 30 VUs; generator CPU 1.90 cores on average, peak 1.90 of 2; machine 50.0 % busy',
    ]);
  });
});

describe('exitWithDelivery', () => {
  const short = judgeDelivery(summary(500, 1500, 30), generator());
  const full = judgeDelivery(summary(1000, 0, 12), generator());

  it('turns a green run on load that was not delivered into exit 5', () => {
    expect(exitWithDelivery(0, short)).toBe(EXIT_LOAD_NOT_DELIVERED);
    expect(loadVerdict(EXIT_LOAD_NOT_DELIVERED)).toBe('thresholds held, but the load asked for was not delivered (exit 5)');
  });

  it("keeps k6's own failure, a breached threshold being a finding at whatever load was sent", () => {
    expect(exitWithDelivery(99, short)).toBe(99);
    expect(exitWithDelivery(0, full)).toBe(0);
  });
});

describe('GeneratorWatch', () => {
  it("reads a real child's CPU from /proc, its scenario line and the Insufficient VUs warning", async () => {
    const script = [
      "console.log('  * chat: 50.00 iterations/s for 2s (maxVUs: 5-30, gracefulStop: 5s)');",
      'console.error(\'level=warning msg="Insufficient VUs, reached 30 active VUs and cannot initialize more"\');',
      'const end = Date.now() + 2500; while (Date.now() < end);',
    ].join('\n');
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const watch = new GeneratorWatch();
    watch.attach(child);
    await new Promise((r) => child.once('exit', r));
    const report = watch.stop();
    expect(report.asked).toEqual({ rate: 50, kind: 'constant', seconds: 2, maxVUs: 30 });
    expect(report.insufficientVUs).toBe(30);
    expect(report.cpuCores.length).toBeGreaterThan(0);
    expect(Math.max(...report.cpuCores)).toBeGreaterThan(0);
  });
});
