// The k6 surface people use on the real engine, run in this process (run/in-process.ts, the files it writes named from
// the script's folder as a process's working folder): k6 run's option flags and the k6/encoding, k6/crypto and k6/html
// modules, against the sentences of k6's documentation they follow (/using-k6/k6-options/reference/,
// /using-k6/environment-variables/, /using-k6/tags-and-groups/, /javascript-api/). None asserts on time.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { n } from './engine-process.js';
import { runInProcess } from './run/in-process.js';

describe.concurrent('the k6 surface on the engine', () => {
  // environment-variables docs: "use one or more -e / --env CLI flags"; options how-to: "command-line flags have the
  // highest order of precedence"; tags-and-groups docs: "k6 run --tag NAME=VALUE"; options reference:
  // "--summary-trend-stats" sets the trend stats of the summary.
  it('runs a documented script with -e, --vus, --iterations, --tag and --summary-trend-stats over its options', async () => {
    const r = await runInProcess(
      `export const options = { scenarios: { long: { executor: 'constant-vus', vus: 1, duration: '10m' } } };
       export default function () { console.log('env greeting=' + __ENV.GREETING + ' path=' + (__ENV.PATH === undefined ? 'none' : 'set')); }`,
      [
        '-e',
        'GREETING=hi',
        '--include-system-env-vars=false',
        '--vus',
        '3',
        '--iterations',
        '6',
        '--tag',
        'run=ci',
        '--summary-trend-stats',
        'avg,p(99),count',
        '--out',
        'json=out.json',
      ],
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("replace the script's scenarios");
    expect(r.stdout).toContain('6 iterations shared among 3 VUs');
    expect(n(r, 'iterations', 'count')).toBe(6);
    expect(n(r, 'vus_max', 'value')).toBe(3);
    expect(r.stderr.match(/env greeting=hi path=none/g)).toHaveLength(6);
    expect(Object.keys(r.summary.metrics.iteration_duration ?? {}).sort()).toEqual(['avg', 'count', 'p(99)']);
    const points = readFileSync(join(r.dir, 'out.json'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"Point"'))
      .map((l) => JSON.parse(l) as { metric: string; data: { tags: Record<string, string> | null } });
    expect(points.filter((p) => p.metric === 'iterations').map((p) => p.data.tags?.run)).toEqual(Array(6).fill('ci'));
  });

  // options reference, stages: "-s 10s:100"; with stages, vus is where the ramp starts (facts sheet §14).
  it('ramps VUs as --stage says, in place of the script scenarios', async () => {
    const r = await runInProcess(
      `export const options = { iterations: 1 };
       export default async function () { await new Promise((r) => setTimeout(r, 50)); }`,
      ['-s', '300ms:2', '--stage', '300ms:0'],
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Up to 2 looping VUs for 600ms over 2 stages');
    expect(n(r, 'vus_max', 'value')).toBe(2);
  });

  // options reference (v1), no-summary: "Disables end-of-test summary generation, including calls to handleSummary()
  // and --summary-export"; v2's --summary-mode=disabled. The facts sheet (§14): "--console-output path
  // (K6_CONSOLE_OUTPUT) redirects console.* to the file."
  it('skips handleSummary and the summary export with --no-summary, and writes console lines to --console-output', async () => {
    const script = `export default function () { console.log('to the file'); }
       export function handleSummary() { return { 'mine.txt': 'written' }; }`;
    const off = await runInProcess(script, ['--no-summary', '--console-output', 'console.log']);
    expect(off.code).toBe(0);
    expect(existsSync(join(off.dir, 'mine.txt'))).toBe(false);
    expect(existsSync(join(off.dir, 'summary.json'))).toBe(false);
    expect(readFileSync(join(off.dir, 'console.log'), 'utf8')).toMatch(/^INFO\[\d{4}\] to the file {2}source=console\n$/);
    expect(off.stderr).not.toContain('to the file');
    const on = await runInProcess(script, ['--summary-mode', 'compact']);
    expect(readFileSync(join(on.dir, 'mine.txt'), 'utf8')).toBe('written');
  });

  // The documentation's examples of k6/encoding (b64encode: "const enc = 'aGVsbG8gd29ybGQ='"), k6/crypto (createHash:
  // hasher.update('hello '); hasher.update('world!'); "7509e5bd…") and k6/html (parseHTML: doc.find('head title').text()),
  // as one script: the imports resolve in the engine's workers.
  it('runs a script importing k6/encoding, k6/crypto and k6/html as their documentation shows', async () => {
    const r = await runInProcess(
      `import { check } from 'k6';
       import encoding from 'k6/encoding';
       import crypto from 'k6/crypto';
       import { parseHTML } from 'k6/html';
       export const options = { iterations: 2 };
       export default function () {
         const hasher = crypto.createHash('sha256');
         hasher.update('hello ');
         hasher.update('world!');
         const doc = parseHTML('<html lang="en"><head><title>k6</title></head></html>');
         check(null, {
           encoding: () => encoding.b64encode('hello world') === 'aGVsbG8gd29ybGQ=' && encoding.b64decode('aGVsbG8gd29ybGQ=', 'std', 's') === 'hello world',
           crypto: () => hasher.digest('hex') === '7509e5bda0c762d2bac7f90d758b5b2263fa01ccbc542ab5e3df163be08e6ca9' && crypto.randomBytes(8).byteLength === 8,
           html: () => doc.find('head title').text() === 'k6' && doc.find('html').attr('lang') === 'en',
         });
       }`,
    );
    expect(r.code).toBe(0);
    expect(n(r, 'checks', 'passes')).toBe(6);
    expect(n(r, 'checks', 'fails')).toBe(0);
  });

  // The facts sheet (§4, §16, from /results-output/end-of-test/custom-summary/): "root_group{name:'', path:'',
  // groups:[same shape], checks:[{name, path:'::grp::check', passes, fails}]}" and "values: … rate {rate,passes,fails}".
  it("hands handleSummary the root group's checks and groups as arrays, in the documented shape", async () => {
    const r = await runInProcess(
      `import { check, group } from 'k6';
       export const options = { iterations: 3 };
       export default function () {
         check(1, { 'is one': (v) => v === 1 });
         group('login', () => { check(__ITER, { 'first only': (i) => i === 0 }); });
       }
       export function handleSummary(data) { return { 'data.json': JSON.stringify(data) }; }`,
      ['--workers', '1'],
    );
    expect(r.code).toBe(0);
    const data = JSON.parse(readFileSync(join(r.dir, 'data.json'), 'utf8'));
    expect(data.root_group).toMatchObject({ name: '', path: '', checks: [{ name: 'is one', path: '::is one', passes: 3, fails: 0 }] });
    expect(data.root_group.groups).toHaveLength(1);
    expect(data.root_group.groups[0]).toMatchObject({
      name: 'login',
      path: '::login',
      groups: [],
      checks: [{ name: 'first only', path: '::login::first only', passes: 1, fails: 2 }],
    });
    expect(data.metrics.checks.values).toEqual({ rate: 4 / 6, passes: 4, fails: 2 });
    expect(data.state.testRunDurationMs).toBeGreaterThan(0);
  });

  // Metrics reference: iterations is "The aggregate number of times the VUs execute the JS script (the default
  // function)"; iteration_duration is "The time to complete one full iteration, including time spent in setup and
  // teardown".
  it('counts in iterations the default function only, and in iteration_duration setup and teardown too', async () => {
    const r = await runInProcess(
      `export const options = { iterations: 2 };
       export function setup() {}
       export default function () {}
       export function teardown() {}`,
      ['--summary-trend-stats', 'avg,count'],
    );
    expect(r.code).toBe(0);
    expect(n(r, 'iterations', 'count')).toBe(2);
    expect(n(r, 'iteration_duration', 'count')).toBe(4);
  });
});
