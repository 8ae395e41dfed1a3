// What a run writes and the exit code it gives, against the sentences of k6's documentation they follow: thresholds,
// the summary export, the header, a script's exceptions. Each test runs the real engine in this process
// (in-process.ts, its worker threads real) and judges counts and shapes, never when anything ran, so they run side by
// side (vitest's maxConcurrency, 5 at a time) among the unit tests. The run's schedules are judged in ../run.test.ts.
import { describe, expect, it } from 'vitest';
import { n } from '../engine-process.js';
import { runInProcess } from './in-process.js';

describe.concurrent('what a run of the built-in engine writes, and its exit code', () => {
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
      `export const options = { scenarios: { chat: {
         executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '1s', preAllocatedVUs: 5, maxVUs: 30, gracefulStop: '5s' } } };
       export default function () {}`,
    );
    expect(r.stdout).toContain('* chat: 5.00 iterations/s for 1s (maxVUs: 5-30, gracefulStop: 5s)');
  });
});
