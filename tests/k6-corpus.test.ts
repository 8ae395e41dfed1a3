// The compatibility corpus: k6 scripts written the way k6's documentation examples are, in tests/k6-corpus/, each run by
// the built-in engine in this process (src/engine/run/in-process.ts; its worker threads real) against a local target,
// and judged by what k6 documents for it: the exit code, the metrics of the summary export, counts where the executor
// makes them exact, and what the target itself saw. Each test quotes the documentation sentence it follows; each script
// names its page.
//
// Nothing here judges time. Counts are exact only where the script fixes them (iterations of shared- and
// per-vu-iterations, requests per iteration, checks per iteration); runs whose length is a duration are judged by
// bounds that hold however slow the machine is. The scripts run three at a time, each with a target of its own.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArgv } from '../src/engine/run/in-process.js';
import { type CorpusTarget, closedPort, HOME_PAGE, startTarget } from './k6-corpus/target.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');

interface Check {
  name: string;
  path: string;
  passes: number;
  fails: number;
}
interface Group {
  name: string;
  path: string;
  groups: Record<string, Group>;
  checks: Record<string, Check>;
}
interface CorpusRun {
  readonly script: string;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly metrics: Record<string, Record<string, number | Record<string, boolean>>>;
  readonly root: Group;
  readonly target: CorpusTarget;
}

/** Engine runs at once: a 2-core runner keeps up with three. */
const SLOTS = 3;
let busy = 0;
const waiting: (() => void)[] = [];
async function inSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (busy >= SLOTS) await new Promise<void>((r) => waiting.push(r));
  busy++;
  try {
    return await fn();
  } finally {
    busy--;
    waiting.shift()?.();
  }
}

/** A run the engine has not ended by then is stopped (SIGINT, k6's exit 105), so a hang fails its test, not the file. */
const GUARD_MS = 60_000;

async function runCorpus(script: string, closed: boolean): Promise<CorpusRun> {
  const target = await startTarget();
  const base = closed ? `http://127.0.0.1:${await closedPort()}` : target.url;
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-corpus-'));
  const summaryPath = join(dir, 'summary.json');
  // The target reaches the script as __ENV.BASE_URL, given as k6's environment-variables page does: `-e NAME=VALUE`.
  const args = ['--no-color', '--quiet', '--summary-export', summaryPath, '-e', `BASE_URL=${base}`, join(CORPUS, script)];
  const { code, stdout, stderr } = await runArgv(args, { dir, guardMs: GUARD_MS });
  await target.close();
  const summary = existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')) : { metrics: {}, root_group: {} };
  return { script, code, stdout, stderr, metrics: summary.metrics, root: summary.root_group, target };
}

const runs = new Map<string, Promise<CorpusRun>>();
/** The run of one corpus script (once per file, whichever tests read it), against its target or a closed port. */
function corpus(script: string, o: { closed?: boolean } = {}): Promise<CorpusRun> {
  const key = `${script}${o.closed ? ' (closed port)' : ''}`;
  let run = runs.get(key);
  if (!run) {
    run = inSlot(() => runCorpus(script, o.closed === true));
    runs.set(key, run);
  }
  return run;
}

/** A number of the summary export; undefined when the metric is absent. */
const m = (r: CorpusRun, metric: string, key = 'count') => r.metrics[metric]?.[key] as number | undefined;
/** A check of the summary export's root_group, found by the names of its groups. */
function check(r: CorpusRun, name: string, ...groups: string[]): Check | undefined {
  let g: Group | undefined = r.root;
  for (const sub of groups) g = g?.groups?.[sub];
  return g?.checks?.[name];
}
/** What the run printed, for an assertion's message. */
const said = (r: CorpusRun) => `${r.script} exited ${r.code}\n${r.stderr.slice(0, 2000)}`;
/** The 1-based line of the first line of `script` that holds `text`. */
function lineOf(script: string, text: string): number {
  return (
    readFileSync(join(CORPUS, script), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(text)) + 1
  );
}

/** Built-in metrics every run that made HTTP requests has (/using-k6/metrics/reference/). */
const HTTP_METRICS = [
  'http_reqs',
  'http_req_duration',
  'http_req_failed',
  'http_req_waiting',
  'iterations',
  'iteration_duration',
  'data_sent',
  'data_received',
  'vus_max',
];
/** The WebSocket metrics of both k6/ws and k6/websockets (/using-k6/metrics/reference/#websockets). */
const WS_METRICS = ['ws_sessions', 'ws_msgs_sent', 'ws_msgs_received', 'ws_connecting', 'ws_session_duration', 'data_sent', 'data_received'];

function expectHttpRun(r: CorpusRun, code = 0, o: { interruptedVus?: number } = {}): void {
  expect(r.code, said(r)).toBe(code);
  for (const name of HTTP_METRICS) expect(r.metrics[name], `${r.script}: ${name}`).toBeDefined();
  // The target answered every request the engine counted, and no other; where the run interrupts iterations, a request
  // cut short may reach one side only: at most one a VU.
  const off = Math.abs(r.target.hits.length - (m(r, 'http_reqs') ?? 0));
  expect(off, `${r.script}: target ${r.target.hits.length}, http_reqs ${m(r, 'http_reqs')}`).toBeLessThanOrEqual(o.interruptedVus ?? 0);
}

describe.concurrent('the k6 compatibility corpus', () => {
  describe('the classic quickstart', () => {
    // Running k6, "Add VUs": "VUs are essentially parallel `while(true)` loops." Write your first test: "make a `GET`
    // request to a URL and introduce a 1-second delay between requests". constant-vus: "For a shortcut to this
    // executor, use the VUs and duration options."
    it('runs 10 VUs of http.get and sleep(1) with one request in every iteration, and exits 0', async () => {
      const r = await corpus('quickstart.js');
      expectHttpRun(r);
      const iterations = m(r, 'iterations') ?? 0;
      const requests = m(r, 'http_reqs') ?? 0;
      expect(iterations).toBeGreaterThan(0);
      // One request an iteration; a VU whose iteration the end cut between its request and its sleep adds at most one.
      expect(requests).toBeGreaterThanOrEqual(iterations);
      expect(requests).toBeLessThanOrEqual(iterations + 10);
      expect(m(r, 'vus_max', 'value')).toBe(10);
      expect(m(r, 'http_req_failed', 'value')).toBe(0);
    });

    // The requirement: "a run in which every iteration failed, or no request/socket/browser action was ever made while the
    // script has some, ends non-zero with a one-line reason that names the first error and its file:line."
    it("exits non-zero against a closed port, naming the script's file:line of the request", async () => {
      const r = await corpus('quickstart.js', { closed: true });
      expect(r.code, said(r)).not.toBe(0);
      expect(r.stderr).toContain(`quickstart.js:${lineOf('quickstart.js', 'http.get(')}`);
      expect(r.target.hits).toHaveLength(0);
    });
  });

  describe('executors and their shortcuts', () => {
    // shared-iterations: "For a shortcut to this executor, use the vus and iterations options."
    it('runs exactly the iterations of the vus and iterations shortcut, one request each', async () => {
      const r = await corpus('shortcut-vus-iterations.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(20);
      expect(m(r, 'http_reqs')).toBe(20);
      expect(m(r, 'vus_max', 'value')).toBe(5);
    });

    // ramping-vus: "For a shortcut to this executor, use the stages option." Running k6: "To configure ramping, use the
    // `options.stages` property."
    it('ramps VUs through the stages shortcut, never past its highest target, a passing check per request', async () => {
      const r = await corpus('shortcut-stages.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBeGreaterThan(0);
      expect(m(r, 'vus_max', 'max')).toBeLessThanOrEqual(3);
      expect(check(r, 'status was 200')).toMatchObject({ passes: m(r, 'http_reqs'), fails: 0 });
    });

    // shared-iterations: "The shared-iterations executor shares iterations between the number of VUs. The test ends
    // once k6 executes all iterations."
    it('runs exactly the shared iterations, whichever VU takes them', async () => {
      const r = await corpus('shared-iterations.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(20);
      expect(m(r, 'http_reqs')).toBe(20);
    });

    // per-vu-iterations: "With the per-vu-iterations executor, each VU executes an exact number of iterations. The
    // total number of completed iterations equals `vus * iterations`."
    it('runs exactly vus * iterations, the same number in every VU', async () => {
      const r = await corpus('per-vu-iterations.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(20);
      const perVu: Record<string, number> = {};
      for (const h of r.target.hits) perVu[h.query.get('vu') ?? '?'] = (perVu[h.query.get('vu') ?? '?'] ?? 0) + 1;
      expect(perVu).toEqual({ 1: 5, 2: 5, 3: 5, 4: 5 });
    });

    // constant-vus: "With the constant-vus executor, a fixed number of VUs execute as many iterations as possible for a
    // specified amount of time."
    it('keeps the fixed number of VUs for the duration, each iteration one request', async () => {
      const r = await corpus('constant-vus.js');
      expectHttpRun(r);
      expect(m(r, 'vus_max', 'value')).toBe(3);
      expect(m(r, 'iterations')).toBeGreaterThan(0);
      // The default gracefulStop (30 s) lets every started iteration finish.
      expect(m(r, 'http_reqs')).toBe(m(r, 'iterations'));
    });

    // minIterationDuration: "Specify the minimum duration for every single execution". A VU's iterations start at least
    // that far apart, so 2 VUs for 3 s start at most 6; the wait is not the function's, so iteration_duration leaves it out.
    it('holds each VU for minIterationDuration per iteration, and leaves the wait out of iteration_duration', async () => {
      const r = await corpus('min-iteration-duration.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBeGreaterThanOrEqual(2);
      expect(m(r, 'iterations')).toBeLessThanOrEqual(6);
      expect(m(r, 'http_reqs')).toBe(m(r, 'iterations'));
      // With the wait inside it, every iteration_duration would be 1 s or more.
      expect(m(r, 'iteration_duration', 'min')).toBeLessThan(1000);
    });

    // ramping-vus: "With gracefulRampDown set to 0 seconds, some iterations might be interrupted during the ramp down
    // stage."
    it('ramps VUs up and down, never past the target, and counts only the iterations that ended', async () => {
      const r = await corpus('ramping-vus.js');
      expectHttpRun(r, 0, { interruptedVus: 4 });
      const iterations = m(r, 'iterations') ?? 0;
      expect(iterations).toBeGreaterThan(0);
      expect(m(r, 'vus_max', 'max')).toBeLessThanOrEqual(4);
      // An interrupted iteration may have sent its request: at most one a VU.
      expect(m(r, 'http_reqs')).toBeGreaterThanOrEqual(iterations);
      expect(m(r, 'http_reqs')).toBeLessThanOrEqual(iterations + 4);
    });

    // constant-arrival-rate: "With the constant-arrival-rate executor, k6 starts a fixed number of iterations over a
    // specified period of time." Dropped iterations: "With constant-arrival-rate and ramping-arrival-rate, iterations
    // drop if there are no free VUs."
    it('starts at most rate × duration iterations, dropped ones included, within maxVUs', async () => {
      // The two scripts' runs are queued together, then judged one after the other.
      for (const r of await Promise.all(['constant-arrival-rate.js', 'async-constant-arrival-rate.js'].map((s) => corpus(s)))) {
        const script = r.script;
        expectHttpRun(r);
        const iterations = m(r, 'iterations') ?? 0;
        expect(iterations, script).toBeGreaterThan(0);
        expect(iterations + (m(r, 'dropped_iterations') ?? 0), script).toBeLessThanOrEqual(20);
        expect(m(r, 'http_reqs'), script).toBe(iterations);
        expect(m(r, 'vus_max', 'max'), script).toBeLessThanOrEqual(10);
      }
    });

    // ramping-arrival-rate: "With the ramping-arrival-rate executor, k6 starts iterations at a variable rate." and
    // "this executor dynamically changes the number of iterations to start".
    it('starts no more iterations than its stages add up to (5 → 10 per second over 1 s, then 10 for 1 s: 17.5)', async () => {
      const r = await corpus('ramping-arrival-rate.js');
      expectHttpRun(r);
      const iterations = m(r, 'iterations') ?? 0;
      expect(iterations).toBeGreaterThan(0);
      expect(iterations + (m(r, 'dropped_iterations') ?? 0)).toBeLessThanOrEqual(18);
      expect(m(r, 'http_reqs')).toBe(iterations);
    });
  });

  describe('thresholds', () => {
    // Thresholds: "k6 considers this test a `pass` and exits with an exit code `0`."
    it('exits 0 when every threshold holds, recording false (not failed) for each', async () => {
      const r = await corpus('thresholds-pass.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(10);
      expect(r.metrics.http_req_failed?.thresholds).toEqual({ 'rate<0.01': false });
      expect(r.metrics.http_req_duration?.thresholds).toEqual({ 'p(95)<2000': false });
    });

    // Thresholds: "If that expression evaluates to `false` at the end of the test, k6 considers the whole test a
    // `fail`." The exit code of a failed threshold is 99 (k6's CI guide, "handle exit code").
    it('exits 99 when a threshold fails, after running every iteration', async () => {
      const r = await corpus('thresholds-fail.js');
      expectHttpRun(r, 99);
      expect(m(r, 'http_reqs')).toBe(6);
      expect(check(r, 'status is 200')).toMatchObject({ passes: 0, fails: 6 });
      expect(r.metrics.checks?.thresholds).toEqual({ 'rate>0.9': true });
      expect(r.metrics.http_req_failed?.thresholds).toEqual({ 'rate<0.01': true });
    });

    // Thresholds: "If any of the thresholds had failed, [...] k6 would exit with a non-zero exit code."
    it('exits 99 when one of two thresholds of an async script fails, recording which', async () => {
      const r = await corpus('async-thresholds.js');
      expectHttpRun(r, 99);
      expect(r.metrics.http_reqs?.thresholds).toEqual({ 'count==4': false });
      expect(r.metrics.http_req_failed?.thresholds).toEqual({ 'rate<0.01': true });
    });

    // Thresholds: "When you set `abortOnFail`, the test run stops _as soon as the threshold fails_."
    it('stops a 10-minute run when its abortOnFail threshold fails, with exit 99', async () => {
      // The two scripts' runs are queued together, then judged one after the other.
      for (const r of await Promise.all(['thresholds-abort.js', 'async-thresholds-abort.js'].map((s) => corpus(s)))) {
        const script = r.script;
        expectHttpRun(r, 99, { interruptedVus: 2 });
        expect(m(r, 'http_reqs'), script).toBeGreaterThan(0);
        expect(r.metrics.http_req_failed?.thresholds, script).toEqual({ 'rate<0.01': true });
      }
    });
  });

  describe('checks and groups', () => {
    // Checks: "failed checks do not cause the test to abort or finish with a failed status. Instead, k6 keeps track of
    // the rate of failed checks as the test continues to run".
    it('counts each check apart, passing and failing, and exits 0 with a failing one', async () => {
      const r = await corpus('checks.js');
      expectHttpRun(r);
      expect(check(r, 'is status 200')).toMatchObject({ passes: 6, fails: 0 });
      expect(check(r, 'verify homepage text')).toMatchObject({ passes: 6, fails: 0 });
      expect(check(r, 'body size is 11,105 bytes')).toMatchObject({ passes: 0, fails: 6 });
      expect(r.metrics.checks).toMatchObject({ passes: 12, fails: 6 });
      expect(HOME_PAGE.length).not.toBe(11105);
    });

    // Tags and Groups: "All metrics emitted in a group have the tag `group` with a value of all wrapping group names
    // separated by `::` (two colons)." and "For each `group()` function, k6 emits a group_duration metric".
    it('nests groups by their names, their checks under them, and emits group_duration', async () => {
      const r = await corpus('groups.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(9);
      expect(check(r, 'is status 200', 'visit product listing page')).toMatchObject({
        path: '::visit product listing page::is status 200',
        passes: 3,
        fails: 0,
      });
      expect(check(r, 'has two crocodiles', 'add several products to the shopping cart', 'checkout process')).toMatchObject({
        path: '::add several products to the shopping cart::checkout process::has two crocodiles',
        passes: 3,
        fails: 0,
      });
      expect(r.metrics.group_duration).toBeDefined();
    });
  });

  // Create custom metrics: "The constructor creates a metric object of the declared type. Each type has an `add`
  // method to take metric measurements."
  it('aggregates a Counter, Gauge, Rate and Trend made in the init context by their types', async () => {
    const r = await corpus('custom-metrics.js');
    expectHttpRun(r);
    expect(m(r, 'my_counter')).toBe(5);
    expect(r.metrics.my_gauge).toMatchObject({ value: 4, min: 0, max: 4 });
    expect(r.metrics.my_rate).toMatchObject({ value: 1, passes: 5, fails: 0 });
    expect(Object.keys(r.metrics.waiting_time ?? {})).toEqual(expect.arrayContaining(['avg', 'min', 'med', 'max', 'p(90)', 'p(95)']));
  });

  describe('the test lifecycle', () => {
    // Test lifecycle: "k6 calls `setup` and `teardown` only once per test." and "You can call the full k6 API in the
    // setup and teardown stages, unlike the init stage." Data from setup: "Give each VU access to an identical copy of
    // the data".
    it("passes setup's data to every iteration and to teardown, each calling the API once", async () => {
      // The two scripts' runs are queued together, then judged one after the other.
      for (const r of await Promise.all(['setup-teardown.js', 'async-setup-teardown.js'].map((s) => corpus(s)))) {
        const script = r.script;
        expectHttpRun(r);
        expect(check(r, 'setup data reached the VU'), script).toMatchObject({ passes: 4, fails: 0 });
        expect(r.target.count('/json', 'GET'), script).toBe(1);
        const posted = r.target.hits.filter((h) => h.path === '/json' && h.method === 'POST');
        expect(
          posted.map((h) => JSON.parse(h.body.toString()).data.name),
          script,
        ).toEqual(['corpus', 'corpus', 'corpus', 'corpus']);
        const teardown = r.target.hits.filter((h) => h.path === '/anything/teardown');
        expect(
          teardown.map((h) => h.query.get('name')),
          script,
        ).toEqual(['corpus']);
        expect(m(r, 'http_reqs'), script).toBe(6);
      }
    });

    // SharedArray: "The function executes only once, and its result is saved in memory once." Data parameterization:
    // "With the help of k6/execution, which includes a property `scenario.iterationInTest`, you can retrieve unique rows
    // from your dataset."
    it('hands each row of a SharedArray read with open() to exactly one iteration', async () => {
      const r = await corpus('shared-array.js');
      expectHttpRun(r);
      const users = r.target.hits.map((h) => new URLSearchParams(h.body.toString()).get('username')).sort();
      expect(users).toEqual(['user1', 'user2', 'user3', 'user4', 'user5', 'user6']);
    });

    // k6's fs example (/javascript-api/k6-experimental/fs/open/, the next docs): "const file = await open('bonjour.txt');"
    // at the top level of the script, the init context. Every VU's init context settles before its first iteration.
    it('runs a script whose init context and a module it imports await at the top level', async () => {
      const r = await corpus('top-level-await.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(4);
      expect(m(r, 'http_reqs')).toBe(8);
      expect(m(r, 'posted_copies')).toBe(8);
      expect(check(r, 'posted after the init awaited')).toMatchObject({ passes: 8, fails: 0 });
      const payload = readFileSync(join(CORPUS, 'data', 'payload.txt'), 'utf8');
      for (const h of r.target.hits) expect([h.path, h.body.toString()]).toEqual(['/anything/await', payload]);
    });

    // open(): "By default, the contents of the file are read as text, but if you specify `b`, the file will be read as
    // binary data instead."
    it('reads a file as text and another as binary in the init context, and posts both unchanged', async () => {
      const r = await corpus('open-file.js');
      expectHttpRun(r);
      const text = r.target.hits.filter((h) => h.path === '/anything/text');
      const binary = r.target.hits.filter((h) => h.path === '/anything/binary');
      expect(text).toHaveLength(2);
      expect(binary).toHaveLength(2);
      for (const h of text) expect(h.body.toString()).toBe(readFileSync(join(CORPUS, 'data', 'payload.txt'), 'utf8'));
      for (const h of binary) expect(h.body.equals(readFileSync(join(CORPUS, 'data', 'logo.bin')))).toBe(true);
    });

    // k6/execution: "All unique identifiers are sequentially generated starting from a base of zero (iterations) or one
    // (VU IDs)."
    it("gives k6/execution's scenario name, VU ids from 1 and iteration numbers from 0", async () => {
      const r = await corpus('execution.js');
      expectHttpRun(r);
      const q = r.target.hits.map((h) => h.query);
      expect(new Set(q.map((x) => x.get('scenario')))).toEqual(new Set(['myscenario']));
      expect(new Set(q.map((x) => x.get('executor')))).toEqual(new Set(['per-vu-iterations']));
      expect(new Set(q.map((x) => x.get('vu')))).toEqual(new Set(['1', '2', '3']));
      expect(q.map((x) => Number(x.get('iter'))).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    });

    // randomSeed: "Set seed to get a reproducible pseudo-random number using Math.random." Its example: "Use randomSeed to
    // get the same random number in all the iterations."
    it('gives the same Math.random number in every iteration of every VU that seeds it alike, and replays the sequence', async () => {
      const r = await corpus('random-seed.js');
      expect(r.code, said(r)).toBe(0);
      const logged = [...r.stderr.matchAll(/INFO\[\d+\] (\S+)\s+source=console/g)].map((x) => Number(x[1]));
      expect(logged).toHaveLength(6);
      expect(new Set(logged).size, r.stderr).toBe(1);
      expect(logged[0]).toBeGreaterThanOrEqual(0);
      expect(logged[0]).toBeLessThan(1);
      expect(check(r, 'the seed replays its sequence')).toMatchObject({ passes: 6, fails: 0 });
      expect(r.stderr).not.toContain('randomSeed');
    });
  });

  describe('k6/http', () => {
    // http.batch(): "Batch multiple HTTP requests together to issue them in parallel over multiple TCP connections." and
    // "If you pass an array of string values, k6 automatically parses them into a batch of `GET` requests".
    it('sends every request of a batch given as arrays or strings, answers in request order', async () => {
      const r = await corpus('batch-array.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(15);
      expect(r.target.count('/form', 'POST')).toBe(3);
      for (const name of ['main page status was 200', 'form posted in a batch', 'second page 204'])
        expect(check(r, name), name).toMatchObject({ passes: 3, fails: 0 });
    });

    // http.batch(): "It is an array when users pass an array as `requests`, and is an ordinary object with string keys
    // when named requests are used".
    it('sends every request of a batch given as request objects or named properties, answers under their keys', async () => {
      const r = await corpus('batch-object.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(15);
      expect(r.target.count('/anything/delete', 'DELETE')).toBe(3);
      for (const name of ['form data OK', 'named response is the json doc']) expect(check(r, name), name).toMatchObject({ passes: 3, fails: 0 });
    });

    // http.post(): "Request body; objects will be `x-www-form-urlencoded`."
    it('posts a JSON string with its Content-Type and an object as a form', async () => {
      const r = await corpus('post-json-form.js');
      expectHttpRun(r);
      expect(r.target.hits.filter((h) => h.path === '/json').map((h) => h.headers['content-type'])).toEqual(Array(3).fill('application/json'));
      expect(r.target.hits.filter((h) => h.path === '/form').map((h) => h.headers['content-type'])).toEqual(Array(3).fill('application/x-www-form-urlencoded'));
      expect(check(r, 'json echoed')).toMatchObject({ passes: 3, fails: 0 });
      expect(check(r, 'form echoed')).toMatchObject({ passes: 3, fails: 0 });
    });

    // http.request(): "Request method (e.g. `'POST'`). Must be uppercase." Each of put/patch/del/head/options returns
    // an HTTP Response object.
    it('sends http.request, put, patch, del, head and options with their methods, each returning its response', async () => {
      const r = await corpus('request-methods.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(12);
      const methods: Record<string, number> = {};
      for (const h of r.target.hits) methods[h.method] = (methods[h.method] ?? 0) + 1;
      expect(methods).toEqual({ POST: 2, PUT: 2, PATCH: 2, DELETE: 2, HEAD: 2, OPTIONS: 2 });
      for (const method of Object.keys(methods)) expect(check(r, `${method} answered 200`), method).toMatchObject({ passes: 2, fails: 0 });
      expect(check(r, 'PUT body arrived')).toMatchObject({ passes: 2, fails: 0 });
      expect(check(r, 'HEAD has no body')).toMatchObject({ passes: 2, fails: 0 });
    });

    // Modules, "Local modules": "These modules are stored on the local filesystem, and accessed either through relative
    // or absolute filesystem paths."
    it('makes the requests of helper functions the script defines and imports from a local module', async () => {
      const r = await corpus('helpers.js');
      expectHttpRun(r);
      expect(r.target.count('/')).toBe(4);
      expect(r.target.count('/json')).toBe(4);
      expect(r.target.count('/anything/crocodile/1')).toBe(4);
      expect(check(r, 'home is 200')).toMatchObject({ passes: 4, fails: 0 });
      expect(check(r, 'crocodiles listed')).toMatchObject({ passes: 4, fails: 0 });
    });

    // http.asyncRequest(): returns a "Promise with Response"; "Using http.asyncRequest() to issue a POST request".
    it('awaits http.asyncRequest responses in an async default function under per-vu-iterations', async () => {
      const r = await corpus('async-request.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(6);
      expect(m(r, 'http_reqs')).toBe(12);
      expect(check(r, 'json echoed')).toMatchObject({ passes: 6, fails: 0 });
      expect(check(r, 'form echoed')).toMatchObject({ passes: 6, fails: 0 });
    });

    // http.asyncRequest(): "This might block the end of the iteration, because the iteration only stops once all async
    // jobs finish."
    it('ends an iteration that raced three requests only when all three have finished', async () => {
      const r = await corpus('async-race.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(4);
      expect(m(r, 'http_reqs')).toBe(12);
      expect(r.target.count('/delay')).toBe(12);
      expect(check(r, 'the winner is 200')).toMatchObject({ passes: 4, fails: 0 });
    });

    // The requirement: "The async style keeps working, and both styles may meet in one script."
    it('runs a blocking http.get and an awaited http.asyncRequest in one async iteration', async () => {
      const r = await corpus('mixed-sync-async.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(4);
      expect(m(r, 'http_reqs')).toBe(8);
      expect(check(r, 'sync get is 200')).toMatchObject({ passes: 4, fails: 0 });
      expect(check(r, 'async post echoed')).toMatchObject({ passes: 4, fails: 0 });
    });
  });

  describe('websockets and timers', () => {
    // WebSockets: "When the WebSocket connection is created, the run function will be immediately called, all code
    // inside it will be executed (usually code to set up event handlers), and then blocked until the WebSocket connection
    // is closed (by the remote host or by using socket.close())." The examples check `r.status === 101`.
    it("runs k6/ws's connect callback until socket.setTimeout closes the socket, returning the 101 response", async () => {
      const r = await corpus('ws-legacy.js');
      expect(r.code, said(r)).toBe(0);
      for (const name of WS_METRICS) expect(r.metrics[name], name).toBeDefined();
      expect(check(r, 'status is 101')).toMatchObject({ passes: 3, fails: 0 });
      expect(check(r, 'echoed hello')).toMatchObject({ passes: 3, fails: 0 });
      expect(m(r, 'ws_sessions')).toBe(3);
      expect(m(r, 'ws_msgs_sent')).toBe(3);
      expect(m(r, 'ws_msgs_received')).toBe(3);
      expect(r.target.sockets).toEqual({ opened: 3, messages: 3 });
    });

    // k6/websockets: "This module implements the browser WebSocket API with additional k6-specific functionalities".
    // Metrics reference: ws_sessions is the "Total number of started WebSocket sessions."
    it('opens a k6/websockets socket per iteration, echoes its message and counts the session', async () => {
      const r = await corpus('websockets.js');
      expect(r.code, said(r)).toBe(0);
      for (const name of WS_METRICS) expect(r.metrics[name], name).toBeDefined();
      expect(m(r, 'iterations')).toBe(4);
      expect(m(r, 'ws_sessions')).toBe(4);
      expect(m(r, 'ws_msgs_sent')).toBe(4);
      expect(m(r, 'ws_msgs_received')).toBe(4);
      expect(check(r, 'echoed')).toMatchObject({ passes: 4, fails: 0 });
      expect(r.target.sockets).toEqual({ opened: 4, messages: 4 });
    });

    // k6/timers example: "clear the timeout and interval to exit k6"; http.asyncRequest: "the iteration only stops once
    // all async jobs finish", a request a timer's callback started included.
    it("runs k6/timers' interval until it is cleared and its timeout's request before the iteration ends", async () => {
      const r = await corpus('timers.js');
      expectHttpRun(r);
      expect(m(r, 'iterations')).toBe(2);
      expect(m(r, 'interval_ticks')).toBe(6);
      expect(r.target.count('/delay')).toBe(2);
      expect(check(r, 'the request of the timeout was answered')).toMatchObject({ passes: 2, fails: 0 });
      expect(m(r, 'http_req_failed', 'value')).toBe(0);
    });
  });

  describe('errors in iterations', () => {
    // fail(): "Immediately throw an error, aborting the current iteration. `fail()` does not abort the test, nor does
    // it make the test exit with non-0 status." and the err argument is the "Error message that gets printed to stderr."
    it('ends only the iteration that calls fail(), prints its message, and exits 0', async () => {
      const r = await corpus('fail.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(6);
      expect(m(r, 'iterations_past_fail')).toBe(3);
      expect(check(r, 'status code MUST be 200')).toMatchObject({ passes: 3, fails: 3 });
      expect(r.stderr).toContain('status code was *not* 200');
    });

    // fail(): "`fail()` is a simple convenience wrapper on top of JavaScript's `throw()`": a thrown error ends its
    // iteration the same way, and the VU goes on to the next.
    it('ends only the iteration that throws, names the error, and exits 0', async () => {
      const r = await corpus('iteration-throws.js');
      expectHttpRun(r);
      expect(m(r, 'http_reqs')).toBe(6);
      expect(m(r, 'parsed_bodies')).toBe(3);
      expect(r.stderr).toMatch(/SyntaxError|JSON/);
    });

    // The requirement: "a run in which every iteration failed, or no request/socket/browser action was ever made while the
    // script has some, ends non-zero with a one-line reason that names the first error and its file:line."
    it("exits non-zero when an async script's every request meets a closed port, naming its file:line", async () => {
      const r = await corpus('async-closed-port.js', { closed: true });
      expect(r.code, said(r)).not.toBe(0);
      expect(r.stderr).toContain(`async-closed-port.js:${lineOf('async-closed-port.js', 'http.asyncRequest(')}`);
    });
  });
});
