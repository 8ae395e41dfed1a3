// A user's own k6 script through `dialtone load ./script.js` (src/load/script-run.ts): run on the built-in engine (the
// engine as a process, as dialtone starts it for a scenario) against the corpus's local target, and reported as a
// scenario is: its thresholds judged as SLOs (k6's exit code 99 when one fails), result.json, junit.xml, the page,
// the history. And the engine as a command of the package: `dialtone-engine run` taking k6's run flags. Judged by exit
// codes, counts and files; nothing here judges time.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../src/engine/cli.js';
import { dialtoneInProcess } from './in-process-cli.js';
import { type CorpusTarget, startTarget } from './k6-corpus/target.js';
import { ROOT } from './run-cli.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');
const dir = mkdtempSync(join(tmpdir(), 'dialtone-load-script-'));
let target: CorpusTarget;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

const load = (script: string, ...flags: string[]) =>
  dialtoneInProcess(['load', join(CORPUS, script), '--engine', 'builtin', '--report-dir', join(dir, 'reports'), ...flags], {
    env: { BASE_URL: target.url },
    timeoutMs: 120_000,
  });
const resultOf = (script: string) => JSON.parse(readFileSync(join(dir, 'reports', 'load', script, 'result.json'), 'utf8'));

describe('dialtone load ./script.js', () => {
  // Thresholds: "If any of the thresholds fail, k6 exits with a non-zero exit code": dialtone's own judgement of a
  // script holds its thresholds as a scenario's SLOs, and passes k6's code on.
  it('runs a script of its own on the built-in engine and reports it as a scenario: thresholds, page, JUnit, history', async () => {
    const r = await load('thresholds-pass.js');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^load thresholds-pass\.js on dialtone built-in engine .*: thresholds held/m);
    const out = join(dir, 'reports', 'load', 'thresholds-pass.js');
    for (const f of ['index.html', 'junit.xml', 'result.json', 'history.jsonl', 'summary.json']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(resultOf('thresholds-pass.js')).toMatchObject({ scenario: 'thresholds-pass.js', workload: 'script', passed: true, engine: { kind: 'builtin' } });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.metrics.iterations.count).toBe(10);
    expect(target.count('/json', 'GET')).toBe(10);
    // The script's two thresholds are the run's SLOs: a JUnit case each, passing.
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('name="http_req_failed rate&lt;0.01"');
    expect(junit).toContain('name="http_req_duration p(95)&lt;2000"');
    expect(junit).toMatch(/tests="2" failures="0"/);
    expect(readFileSync(join(out, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it("fails with k6's 99 when the script's own threshold fails, the JUnit case naming it", async () => {
    const r = await load('thresholds-fail.js');
    expect(r.code, r.stdout + r.stderr).toBe(99);
    const junit = readFileSync(join(dir, 'reports', 'load', 'thresholds-fail.js', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase [^>]*name="checks rate&gt;0\.9"[^>]*>\s*<failure/);
    expect(resultOf('thresholds-fail.js').passed).toBe(false);
  });

  it("passes on the engine's one-line refusal of a script it cannot run, exit 2, no stack frame, nothing recorded", async () => {
    const script = join(dir, 'redis.js');
    writeFileSync(script, "import redis from 'k6/experimental/redis';\nexport default function () {}\n");
    const r = await dialtoneInProcess(['load', script, '--engine', 'builtin', '--report-dir', join(dir, 'reports')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the script imports 'k6/experimental/redis', which the built-in engine does not provide");
    expect(r.stderr).toContain('run the script on k6');
    expect(r.stderr).toContain('load: the engine refused redis.js before it ran (exit 107');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(dir, 'reports', 'load', 'redis.js', 'history.jsonl'))).toBe(false);
  });

  it('refuses a path that is no file, and a scenario-only flag, in one line with exit 2', async () => {
    const missing = await dialtoneInProcess(['load', './no-such-script.js']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain("no script at './no-such-script.js'");
    const target = await dialtoneInProcess(['load', join(CORPUS, 'quickstart.js'), '--target', 'x.yaml']);
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('--target is for dialtone');
  });
});

describe('dialtone-engine, a command of the package', () => {
  it('is installed as a bin of its own, pointing at the engine', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin['dialtone-engine']).toBe('bin/dialtone-engine.mjs');
    expect(existsSync(join(ROOT, pkg.bin['dialtone-engine'] as string))).toBe(true);
  });

  // k6 run: "k6 run script.js --vus 10 --duration 30s": the flags come before or after the script.
  it("takes k6's run flags before or after the script", () => {
    const args = parseRunArgs(['script.js', '--vus', '2', '--duration', '5s', '-e', 'A=b'], {});
    expect(args).toMatchObject({ script: 'script.js', vus: 2, duration: '5s' });
  });
});
