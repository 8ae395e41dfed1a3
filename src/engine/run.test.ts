// The built-in engine, against the sentences of k6's documentation it follows. Each test runs the real engine in this
// process (run/in-process.ts: its streams captured, its signals sent by the test, its worker threads real); the one that
// sends a real SIGINT runs it as its own process. None asserts on time: counts are exact by construction (an iteration
// longer than the run keeps its VU busy), not by scheduling luck.
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

  // These judge counts and shapes, never when anything ran: side by side (vitest's maxConcurrency, 5 at a time) they
  // leave the driving lane sooner, and the ones above, where a starved process could cut an iteration short, run alone.
  describe.concurrent('where nothing depends on when it runs', () => {
    // @types/k6 2.3.0, options: tlsAIAFetch "Fetch missing intermediate certificates through Authority Information Access
    // (AIA) when a server sends an incomplete TLS certificate chain". Node cannot; the engine says so instead of failing later.
    it('warns that it does not fetch missing intermediate certificates when a script asks for tlsAIAFetch', async () => {
      const r = await runInProcess(`export const options = { iterations: 1, tlsAIAFetch: true };\n       export default function () {}`);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('tlsAIAFetch is not supported by the built-in engine');
    });

    // thresholds docs: a failed threshold fails the test; exit code 99 (the facts sheet's "Exit codes", from k6's CI guide).
    it('exits 99 when a threshold fails and 0 when every threshold holds, recording true for the failed one', async () => {
      const script = (limit: number) =>
        `import { Trend } from 'k6/metrics';
         const t = new Trend('latency', true);
         export const options = { iterations: 10, thresholds: { latency: ['p(95)<${limit}', 'max<1000'] } };
         export default function () { t.add(__ITER * 10); }`;
      const held = await runInProcess(script(1000));
      expect(held.code).toBe(0);
      expect(held.summary.metrics.latency?.thresholds).toEqual({ 'p(95)<1000': false, 'max<1000': false });
      const broke = await runInProcess(script(5));
      expect(broke.code).toBe(99);
      // The legacy summary export records true for a threshold that FAILED (a documented quirk).
      expect(broke.summary.metrics.latency?.thresholds).toEqual({ 'p(95)<5': true, 'max<1000': false });
    });

    // thresholds docs: a key may be a sub-metric, "http_req_duration{type:API}": only samples with those tags count.
    it('judges a tag-filtered sub-metric on its own samples and exports it under its key', async () => {
      const r = await runInProcess(
        `import { Counter } from 'k6/metrics';
         const c = new Counter('hits');
         export const options = { iterations: 6, thresholds: { 'hits{kind:a}': ['count==2'], hits: ['count==6'] } };
         export default function () { c.add(1, { kind: __ITER % 3 === 0 ? 'a' : 'b' }); }`,
        ['--workers', '1'],
      );
      expect(r.code).toBe(0);
      expect(n(r, 'hits{kind:a}', 'count')).toBe(2);
      expect(n(r, 'hits', 'count')).toBe(6);
    });

    it("refuses a malformed threshold before anything runs, with k6's invalid-config exit code 104", async () => {
      const r = await runInProcess(`export const options = { thresholds: { iterations: ['p(95) <<< 3'] } }; export default function () {}`);
      expect(r.code).toBe(104);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('refuses a threshold on a metric that does not exist (k6: no metric name "X" found)', async () => {
      const r = await runInProcess(`export const options = { thresholds: { nope: ['count>0'] } }; export default function () {}`);
      expect(r.code).toBe(104);
      expect(r.stderr).toMatch(/nope/);
    });

    // test-lifecycle docs: "Each VU is a separate JS VM" — module-level state is per VU.
    it('gives each VU its own instance of the script module', async () => {
      const r = await runInProcess(
        `import { Counter } from 'k6/metrics';
         import { check } from 'k6';
         let mine = 0;
         const c = new Counter('seen');
         export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 3, iterations: 4 } } };
         export default function () { mine++; c.add(1); check(mine, { 'counts only this VU\\'s iterations': (m) => m === __ITER + 1 }); }`,
      );
      expect(r.code).toBe(0);
      expect(n(r, 'seen', 'count')).toBe(12);
      expect(n(r, 'checks', 'passes')).toBe(12);
      expect(n(r, 'checks', 'fails')).toBe(0);
    });

    // fail docs: an exception ends only that iteration; the run goes on and its exit code is unchanged.
    it('ends only the iteration whose code throws, logs it, and exits 0', async () => {
      const r = await runInProcess(
        `import { fail } from 'k6';
         export const options = { iterations: 3 };
         export default function () { if (__ITER === 0) fail('first one fails'); }`,
        ['--workers', '1'],
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/first one fails/);
      expect(n(r, 'iterations', 'count')).toBe(3);
    });

    // summary export (legacy shape): counters {count, rate}, gauges {value, min, max}, rates {passes, fails, value},
    // trends the summaryTrendStats keys; root_group.checks with passes and fails per check.
    it('writes the legacy summary export shape that dialtone and k6 users read', async () => {
      const r = await runInProcess(
        `import { check } from 'k6';
         import { Gauge, Rate, Trend } from 'k6/metrics';
         const g = new Gauge('g'); const rt = new Rate('r'); const t = new Trend('t');
         export const options = { iterations: 4, summaryTrendStats: ['avg', 'p(99)', 'count'] };
         export default function () { g.add(__ITER); rt.add(__ITER % 2); t.add(1); check(1, { one: (v) => v === 1 }); }`,
        ['--workers', '1'],
      );
      expect(Object.keys(r.summary.metrics.t ?? {}).sort()).toEqual(['avg', 'count', 'p(99)']);
      expect(r.summary.metrics.r).toMatchObject({ passes: 2, fails: 2, value: 0.5 });
      expect(Object.keys(r.summary.metrics.g ?? {}).sort()).toEqual(['max', 'min', 'value']);
      expect(r.summary.metrics.iterations).toMatchObject({ count: 4 });
      expect((r.summary.root_group as { checks: Record<string, { passes: number; fails: number }> }).checks.one).toMatchObject({ passes: 4, fails: 0 });
    });

    it("prints the scenario line of k6's header that dialtone reads to know the asked load", async () => {
      const r = await runInProcess(
        `export const options = { scenarios: { chat: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '1s', preAllocatedVUs: 5, maxVUs: 30, gracefulStop: '5s' } } };
         export default function () {}`,
      );
      expect(r.stdout).toContain('* chat: 5.00 iterations/s for 1s (maxVUs: 5-30, gracefulStop: 5s)');
    });
  });
});
