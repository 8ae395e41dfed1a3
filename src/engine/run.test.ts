// The built-in engine's schedules, against the sentences of k6's documentation they follow: arrivals, gracefulStop,
// abortOnFail, stop signals. Each test runs the real engine in this process (run/in-process.ts: its streams captured,
// its signals sent by the test, its worker threads real); the one that sends a real SIGINT runs it as its own process.
// None asserts on time: counts are exact by construction (an iteration longer than the run keeps its VU busy), not by
// scheduling luck; but a starved run could cut an iteration short, so they run in a timing lane. What a run writes and
// its exit code, judged on counts and shapes only, are in run/results.test.ts.
import { describe, expect, it } from 'vitest';
import { n, runScript } from './engine-process.js';
import { runInProcess } from './run/in-process.js';

describe('the built-in engine', () => {
  // constant-arrival-rate docs: "k6 starts a fixed number of iterations over a specified period of time" and
  // dropped-iterations docs: "With constant-arrival-rate and ramping-arrival-rate, iterations drop if there are no free VUs."
  it('starts every scheduled arrival or counts it in dropped_iterations when no VU is free', async () => {
    const r = await runInProcess(
      `export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 2, gracefulStop: '0s' } } };
       export default async function () { await new Promise((r) => setTimeout(r, 5000)); }`,
    );
    expect(r.code).toBe(0);
    // 20 arrivals: two VUs (the pre-allocated one and one more up to maxVUs) each take one and stay busy past the end.
    expect(n(r, 'dropped_iterations', 'count')).toBe(18);
    expect(n(r, 'vus_max', 'value')).toBe(2);
    // Both were cut by the 0 s graceful stop, so no iteration ended (k6#652: iterations counts iterations that ended).
    expect(r.summary.metrics.iterations).toBeUndefined();
    expect(r.stderr).toMatch(/Insufficient VUs, reached 2 active VUs and cannot initialize more/);
  });

  // arrival-rate-vu-allocation docs: maxVUs is the "Maximum number of VUs to allow during the test run".
  it('makes VUs mid-test up to maxVUs and never past it', async () => {
    const r = await runInProcess(
      `export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 4, gracefulStop: '0s' } } };
       export default async function () { await new Promise((r) => setTimeout(r, 5000)); }`,
    );
    expect(n(r, 'vus_max', 'max')).toBe(4);
    expect(n(r, 'dropped_iterations', 'count')).toBe(6);
  });

  // graceful-stop docs: "It specifies a duration that k6 will wait before forcefully interrupting an iteration."
  it('lets a running iteration finish within gracefulStop and interrupts one that would outlast it', async () => {
    const script = (sleepMs: number) =>
      `import { Counter } from 'k6/metrics';
       const after = new Counter('after_sleep');
       export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '1s', gracefulStop: '1s' } } };
       export default async function () { await new Promise((r) => setTimeout(r, 1200)); after.add(1); await new Promise((r) => setTimeout(r, ${sleepMs})); }`;
    const finished = await runInProcess(script(0), ['--workers', '1']);
    expect(n(finished, 'iterations', 'count')).toBe(1);
    const cut = await runInProcess(script(60_000), ['--workers', '1']);
    expect(n(cut, 'after_sleep', 'count')).toBe(1);
    expect(cut.summary.metrics.iterations).toBeUndefined();
  });

  // thresholds docs: "abortOnFail" stops the run as soon as the threshold fails; "delayAbortEval" postpones that.
  it('stops a run early when an abortOnFail threshold fails, with exit 99', async () => {
    const r = await runInProcess(
      `import { Rate } from 'k6/metrics';
       const ok = new Rate('ok');
       export const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '10m' } }, thresholds: { ok: [{ threshold: 'rate>0.5', abortOnFail: true, delayAbortEval: '1s' }] } };
       export default async function () { ok.add(false); await new Promise((r) => setTimeout(r, 20)); }`,
    );
    expect(r.code).toBe(99);
    expect(r.stderr).toMatch(/abortOnFail/);
    expect(n(r, 'ok', 'value')).toBe(0);
  });

  // test-lifecycle docs: an async default function's iteration ends "once all its promises and timers settle".
  it('ends an async iteration only once the timers it started have fired', async () => {
    const r = await runInProcess(
      `import { Counter } from 'k6/metrics';
       import { setTimeout } from 'k6/timers';
       const c = new Counter('fired');
       export const options = { iterations: 2 };
       export default function () { setTimeout(() => c.add(1), 300); }`,
    );
    expect(n(r, 'fired', 'count')).toBe(2);
    expect(n(r, 'iteration_duration', 'min')).toBeGreaterThanOrEqual(290);
  });

  // execution-segment: parts of one run together are the whole run.
  it('runs two equal execution segments that together start exactly the arrivals of the whole run', async () => {
    const script = `import { Counter } from 'k6/metrics';
      const c = new Counter('started');
      export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 30, timeUnit: '1s', duration: '1s', preAllocatedVUs: 10 } } };
      export default function () { c.add(1); }`;
    const seq = ['--execution-segment-sequence', '0,1/2,1'];
    const [a, b] = await Promise.all([
      runInProcess(script, ['--execution-segment', '0:1/2', ...seq]),
      runInProcess(script, ['--execution-segment', '1/2:1', ...seq]),
    ]);
    expect((n(a, 'started', 'count') ?? 0) + (n(b, 'started', 'count') ?? 0)).toBe(30);
    expect(n(a, 'started', 'count')).toBe(15);
  });

  // A real signal to the engine's process: the CLI's signal source (cli.ts), which the tests in this process stand in for.
  it('stops at SIGINT, still writes the summary, and exits 105 as k6 does on an external abort', async () => {
    const r = await runScript(
      `export const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '10m' } } };
       export default async function () { await new Promise((r) => setTimeout(r, 50)); }`,
      [],
      { signalAfterMs: 2500 },
    );
    expect(r.code).toBe(105);
    expect(n(r, 'iterations', 'count')).toBeGreaterThan(0);
  });

  // A signal while setup() waits (on a slow target, say) ends the run there: no VU runs without setup's data, and
  // teardown is skipped as when setup throws; the summary is still written and the code is k6's 105.
  it('stops during setup() without waiting for it to end, runs no iteration and no teardown, and exits 105', async () => {
    const r = await runInProcess(
      `import { Counter } from 'k6/metrics';
       const ran = new Counter('ran');
       export const options = { iterations: 1 };
       export async function setup() { console.log('setup began'); await new Promise((r) => setTimeout(r, 3_600_000)); }
       export default function () { ran.add(1); }
       export function teardown() { console.log('teardown ran'); }`,
      [],
      { signalOn: 'setup began' },
    );
    expect(r.code, r.stderr).toBe(105);
    expect(r.summary.metrics.ran).toBeUndefined();
    expect(r.summary.metrics.iterations).toBeUndefined();
    expect(r.stdout + r.stderr).not.toContain('teardown ran');
  });

  // Beyond k6: "For arrival-rate executors, record how late each iteration started against its intended
  // time (a metric with k6-style naming, e.g. iteration_start_lag)". The first iteration holds the event loop for
  // 300 ms of its 1 s run, so the arrival due at 100 ms cannot start before 300 ms: a lower bound any machine keeps.
  it('records iteration_start_lag for every started arrival, at least as late as a blocked event loop made it', async () => {
    const r = await runInProcess(
      `import exec from 'k6/execution';
       export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '1s', preAllocatedVUs: 10 } } };
       export default function () { if (exec.scenario.iterationInTest === 0) { const end = Date.now() + 300; while (Date.now() < end); } }`,
      ['--workers', '1', '--summary-trend-stats', 'max,count'],
    );
    expect(r.code).toBe(0);
    expect(n(r, 'iteration_start_lag', 'count')).toBe(n(r, 'iterations', 'count'));
    expect(n(r, 'iteration_start_lag', 'max')).toBeGreaterThanOrEqual(190);
  });
});
