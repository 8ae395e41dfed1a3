// The smaller divergences of issue 55 between the built-in engine and k6, each a corpus script of its own in
// tests/k6-corpus/ run by the engine in this process (its worker threads real) against the corpus's local target, and
// judged by what k6 documents, or where the docs are silent, by what k6 does. Each test quotes the sentence it follows.
// Nothing here judges time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArgv } from '../src/engine/run/in-process.js';
import { type CorpusTarget, closedPort, startTarget } from './k6-corpus/target.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly metrics: Record<string, Record<string, number | Record<string, boolean>>>;
  readonly target: CorpusTarget;
}

/** A run the engine has not ended by then is stopped (SIGINT, exit 105), so a hang fails its test, not the file. */
const GUARD_MS = 60_000;

/** Runs one corpus script against a target of its own, with k6's summary export read back. */
async function corpus(
  script: string,
  more: readonly string[] | ((t: CorpusTarget, dir: string) => readonly string[]) = [],
  env?: NodeJS.ProcessEnv,
  signalOn?: string,
): Promise<Run> {
  const target = await startTarget();
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-divergence-'));
  const summaryPath = join(dir, 'summary.json');
  const extra = typeof more === 'function' ? more(target, dir) : more;
  const args = ['--no-color', '--quiet', '--summary-export', summaryPath, '-e', `BASE_URL=${target.url}`, ...extra, join(CORPUS, script)];
  const { code, stdout, stderr } = await runArgv(args, { dir, guardMs: GUARD_MS, ...(env ? { env } : {}), ...(signalOn ? { signalOn } : {}) });
  await target.close();
  const metrics = existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')).metrics : {};
  return { code, stdout, stderr, metrics, target };
}

/** The system Chromium, as src/engine/modules/browser/browser.test.ts finds it; browser scripts are skipped without one. */
const chromium =
  process.env.DIALTONE_CHROMIUM || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
/** What k6 reads to launch the browser (/using-k6-browser/options/): here the system Chromium, headless, no sandbox (root). */
const BROWSER_ENV = { K6_BROWSER_EXECUTABLE_PATH: chromium, K6_BROWSER_ARGS: 'no-sandbox', K6_BROWSER_HEADLESS: 'true' };

const said = (r: Run) => `exited ${r.code}\n${r.stderr.slice(0, 2000)}`;

describe.concurrent("the built-in engine where it used to part from k6's behaviour", () => {
  // Thresholds: "If that expression evaluates to `false` at the end of the test, k6 considers the whole test a `fail`."
  // The docs are silent on a metric with no sample; k6 judges an empty counter or trend on the 0 its sink holds, and
  // for an empty rate "a missing sink entry means that no samples are available yet, and that it's safe to ignore this
  // run" (k6's metrics/thresholds.go): the test passes.
  it('passes thresholds on a rate with no sample and on sub-metrics no request reached, and exits 0', async () => {
    const r = await corpus('thresholds-no-samples.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.target.hits).toHaveLength(2);
    // The legacy summary export records true for a FAILED threshold.
    expect(r.metrics.checks?.thresholds).toEqual({ 'rate==1.0': false });
    expect(r.metrics['http_req_duration{name:never-requested}']?.thresholds).toEqual({ 'p(95)<500': false });
    expect(r.metrics['http_reqs{name:never-requested}']?.thresholds).toEqual({ 'count<1': false });
    expect(r.stdout).toContain("✓ 'rate==1.0'");
    expect(r.stdout).not.toContain('✗');
  });

  // Graceful stop: iterations still running at the scenario's end "get gracefulStop to finish, then they are
  // interrupted" (/using-k6/scenarios/concepts/graceful-stop/); k6/execution counts them in
  // `exec.instance.iterationsInterrupted`, and an interrupted iteration emits no `iterations` sample (k6#652).
  it('interrupts a VU in a synchronous loop at the end of gracefulStop, so the run ends by itself', async () => {
    const r = await corpus('busy-loop.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.stderr).toMatch(/interrupted=1 completed=0\s+source=console/);
    expect(r.metrics.iterations).toBeUndefined();
    expect(r.metrics.vus_max).toMatchObject({ value: 1 });
  });

  // Ctrl-C: the engine stops the run as k6 does at an external abort (exit 105), its running iterations interrupted at
  // once; a VU in a synchronous loop too, so a 10-minute run stopped by a signal ends by itself.
  it('interrupts a VU in a synchronous loop when the run is stopped by a signal, and exits 105', async () => {
    const r = await corpus('busy-loop.js', ['-e', 'BUSY_FOR=10m'], undefined, 'spinning');
    expect(r.code, said(r)).toBe(105);
    expect(r.stderr).toMatch(/interrupted=1 completed=0\s+source=console/);
  });

  // http.post(): "Request body; objects will be `x-www-form-urlencoded`." k6 (the docs silent on arrays) adds each
  // element of an array value under its key, so the key repeats, in the element order.
  it('repeats the key of an array value in a form body, once per element', async () => {
    const r = await corpus('form-array.js');
    expect(r.code, said(r)).toBe(0);
    const hit = r.target.hits.find((h) => h.path === '/anything/form');
    expect(hit?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(hit?.body.toString()).toBe('n=1&n=2&name=corpus&tag=a&tag=b+c');
  });

  // Counter.add(): "Add a value to the Counter metric" (k6's add returns true); createHash: "a hashing object that can
  // then be fed with data repeatedly, and from which you can extract a hash digest whenever you want".
  it("returns true from a metric's add() and digests a Hasher more than once, as scripts check", async () => {
    const r = await corpus('metric-add-hasher.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.metrics.checks).toMatchObject({ passes: 8, fails: 0 });
    expect(r.metrics.sent_things).toMatchObject({ count: 2 });
  });

  // fail(): "fail() is a simple convenience wrapper on top of JavaScript's throw()", its text the "Error message that
  // gets printed to stderr"; k6 prints an exception with where the script threw it, a thrown string included.
  it("logs a thrown string with the script's file:line where it was thrown, and lets the script catch it unchanged", async () => {
    const r = await corpus('throw-string.js');
    expect(r.code, said(r)).toBe(0);
    const line =
      readFileSync(join(CORPUS, 'throw-string.js'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('throw `refused')) + 1;
    expect(r.stderr).toMatch(new RegExp(`refused: the first iteration\\n\\t\\s*at refuse \\(tests/k6-corpus/throw-string\\.js:${line}\\)`));
    expect(r.metrics.checks).toMatchObject({ passes: 2, fails: 0 });
  });

  // Test lifecycle: "If the setup() function throws an error, the teardown() function isn't called." The error is
  // printed with the script's frames: k6's stack traces are the script's, never k6's own code, nor dialtone's here.
  it("prints a failed setup() with the script's frames and none of the engine's own files", async () => {
    const r = await corpus('setup-throws.js');
    expect(r.code, said(r)).not.toBe(0);
    const lines = readFileSync(join(CORPUS, 'setup-throws.js'), 'utf8').split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    expect(r.stderr).toContain('no test users could be made');
    expect(r.stderr).toMatch(new RegExp(`at makeUsers \\(tests/k6-corpus/setup-throws\\.js:${at("throw new Error('no test")}\\)`));
    expect(r.stderr).not.toMatch(/src\/engine|dist\/src|node:internal|node_modules|<anonymous>/);
    expect(r.stderr).not.toContain('teardown ran');
  });

  // Params: "auth: The authentication method used for the request. It currently supports digest, ntlm, and basic
  // authentication methods." Digest sends no credentials at first: the server's 401 names a nonce, and the request goes
  // again with an Authorization that answers it. k6 expects that first 401 (http_req_failed counts it as expected).
  it("authenticates with auth: 'digest', answering the server's 401 challenge, never sending the password as Basic", async () => {
    const r = await corpus('digest-auth.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.metrics.checks).toMatchObject({ passes: 6, fails: 0 });
    const hits = r.target.hits.filter((h) => h.path === '/digest-auth/auth/user/passwd');
    expect(hits.map((h) => h.headers.authorization?.split(' ')[0])).toEqual([undefined, 'Digest', undefined, 'Digest']);
    expect(r.metrics.http_reqs).toMatchObject({ count: 4 });
    expect(r.metrics.http_req_failed).toMatchObject({ passes: 0 });
  });

  // docs/engines.md: where dialtone differs from k6 on purpose, a run that sent nothing its script sends ends with exit
  // 107. A browser script that loads no URL on purpose did send: page.setContent, "This sets up a given HTML to the
  // page"; a navigation the script expects to fail, page.goto's promise rejected and caught.
  it.skipIf(!chromium)('counts a page whose content the script set, and a navigation it expected to fail, as sending: exit 0', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const runs = await Promise.all([
      corpus('browser-set-content.js', [], BROWSER_ENV),
      corpus('browser-expected-failure.js', ['-e', `DOWN_URL=${down}`], BROWSER_ENV),
    ]);
    for (const r of runs) {
      expect(r.code, said(r)).toBe(0);
      expect(r.metrics.checks, said(r)).toMatchObject({ passes: 1, fails: 0 });
      expect(r.target.hits).toEqual([]);
    }
  });

  // k6's own browser examples (examples/browser/ in k6's repository, run by scripts/k6-examples.ts) expect these of a
  // blank page: cookies.js and waitforfunction.js load no URL and pass; evaluate.js passes two arguments ("result
  // should be 25"); elementstate.js finds a div editable; useragent.js checks "user agent does not contain headless".
  it.skipIf(!chromium)('runs a browser test that loads no URL as written: several evaluate arguments, isEditable, no Headless, clicks at once', async () => {
    const r = await corpus('browser-page-only.js', [], BROWSER_ENV);
    expect(r.code, said(r)).toBe(0);
    expect(r.metrics.checks, said(r)).toMatchObject({ passes: 4, fails: 0 });
    expect(r.target.hits).toEqual([]);
  });

  // options.hosts (/using-k6/k6-options/reference/#hosts): "An object with overrides to DNS resolution"; "*.k6.io would
  // apply the override for all subdomains of k6.io". The names resolve nowhere (.invalid), so only the override reaches.
  it('sends requests and WebSockets for a named host and a wildcard subdomain where options.hosts says, keeping the Host header', async () => {
    const r = await corpus('hosts.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.metrics.checks, said(r)).toMatchObject({ passes: 3, fails: 0 });
    expect(r.target.sockets).toEqual({ opened: 1, messages: 1 });
    expect(r.target.hits.map((h) => [h.path, h.headers.host])).toEqual([
      ['/anything/named', 'pizza.test.invalid'],
      ['/anything/wild', 'api.wild.invalid'],
    ]);
  });

  // k6 run --config: "Specify the config file in JSON format"; options how-to: "defaults < config file < script
  // options". A file that is not JSON is k6's invalid-config exit, 104, in one line.
  it('reads options from a --config file under the script, and refuses an unreadable one with 104', async () => {
    const r = await corpus('config-hosts.js', (t, dir) => {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ hosts: { 'config.test.invalid': new URL(t.url).host }, iterations: 5 }));
      return ['--config', file];
    });
    expect(r.code, said(r)).toBe(0);
    // The script's iterations: 1 goes over the file's 5.
    expect(r.target.count('/anything/configured')).toBe(1);
    const bad = await corpus('config-hosts.js', (_t, dir) => {
      const file = join(dir, 'config.json');
      writeFileSync(file, '{ not json');
      return ['-c', file];
    });
    expect(bad.code, said(bad)).toBe(104);
    expect(bad.stderr).toMatch(/--config \S+config\.json: /);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect(bad.target.hits).toEqual([]);
  });
});
