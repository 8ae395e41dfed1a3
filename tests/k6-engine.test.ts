import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findK6, K6_VERSION } from '../src/load/k6.js';
import { startTarget as startCorpusTarget } from './k6-corpus/target.js';
import { backgroundTarget, dialtone, ROOT } from './run-cli.js';

// The k6-engine tests: a load on a k6 the user installed (DIALTONE_K6, else k6 on PATH; a v2 not older than the one
// dialtone is tested with). dialtone never installs k6, so where there is none they are skipped, saying so; the
// "k6 engine" workflow installs one with grafana/setup-k6-action and runs them (DIALTONE_REQUIRE_K6=1 there makes a
// k6 that was not found a failure rather than a skip).
const k6 = findK6();
const title = k6
  ? `load on the user's k6 (${k6.version} at ${k6.path})`
  : `load on the user's k6: skipped, no k6 ${K6_VERSION} or newer installed (DIALTONE_K6 or k6 on PATH)`;

describe.skipIf(!k6)(title, () => {
  it('runs chat-turns at smoke with --engine k6 against the reference target: exit 0, and the report names k6', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-engine-'));
    const r = await dialtone(['load', 'chat-turns', '--workload', 'smoke', '--engine', 'k6', '--report-dir', dir], { timeoutMs: 150_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('load chat-turns (smoke) on k6 v2.');
    const report = join(dir, 'load', 'chat-turns');
    const result = JSON.parse(readFileSync(join(report, 'result.json'), 'utf8'));
    expect(result.engine).toEqual({ kind: 'k6', version: k6?.version });
    expect(result.k6_exit_code).toBe(0);
    expect(result.delivery.delivered, result.headline.join('\n')).toBe(true);
    expect(result.figures.turns_per_s).toBeGreaterThan(0);
    // The history record names the engine too, so the nightly verdict compares k6 nights with k6 nights only.
    const history = readFileSync(join(report, 'history.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(history.at(-1) as string).engine.kind).toBe('k6');
    expect(readFileSync(join(report, 'index.html'), 'utf8')).toMatch(/engine k6 v2\.\d+\.\d+/);
    // k6's own web dashboard, which only k6 writes.
    expect(readFileSync(join(report, 'dashboard.html'), 'utf8')).toContain('<html');
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});

describe.skipIf(!k6)(`${title}: a profile's SLOs`, () => {
  it("judges the profile's SLOs the same on k6 and on the built-in engine", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-slos-'));
    const target = await backgroundTarget(join(dir, 'ref.json'));
    try {
      // An SLO no platform meets (respond under a microsecond) and one every platform meets: both engines must agree.
      const slos = { 'chat-turns': { 'http_req_duration{op:chat.respond}': ['p(95)<0.001'], 'http_req_duration{op:chat.create}': ['p(95)<60000'] } };
      const profile = join(dir, 'slos.json');
      writeFileSync(profile, JSON.stringify({ ...JSON.parse(readFileSync(join(dir, 'ref.json'), 'utf8')), slos }));
      for (const engine of ['k6', 'builtin']) {
        const r = await dialtone(['load', 'chat-turns', '--target', profile, '--engine', engine, '--duration', '5s', '--report-dir', join(dir, engine)], {
          timeoutMs: 150_000,
        });
        expect(r.code, `${engine}: ${r.stdout}${r.stderr}`).toBe(99);
        expect(r.stdout).toMatch(/FAIL http_req_duration\{op:chat\.respond\} p\(95\)<0\.001 \(value [\d.]+; the profile's SLO\)/);
        const result = JSON.parse(readFileSync(join(dir, engine, 'load', 'chat-turns', 'result.json'), 'utf8'));
        expect(result.thresholds.find((t: { metric: string }) => t.metric === 'http_req_duration{op:chat.create}')).toMatchObject({
          passed: true,
          source: 'profile',
        });
      }
    } finally {
      await target.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 360_000);
});

// Archive Command: "k6 run is compatible with archive files": the built-in engine's archive runs on k6, and k6's own
// archive runs on the built-in engine. top-level-await.js holds a local module, an open()ed file and top-level await.
describe.skipIf(!k6)(`${title}: archives both ways`, () => {
  it("runs the built-in engine's archive on k6, and k6's archive on the built-in engine, with the same counts", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-archive-'));
    const target = await startCorpusTarget();
    try {
      const script = join(import.meta.dirname, 'k6-corpus', 'top-level-await.js');
      const ours = join(dir, 'ours.tar');
      const made = spawnSync(process.execPath, [join(ROOT, 'bin', 'dialtone-engine.mjs'), 'archive', '-O', ours, script], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      const theirs = join(dir, 'theirs.tar');
      const k6Made = spawnSync(k6?.path as string, ['archive', '-O', theirs, script], {
        encoding: 'utf8',
        env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
      });
      expect(k6Made.status, k6Made.stderr).toBe(0);
      const runs: [string, string[]][] = [
        [k6?.path as string, ['run', '--quiet', '--summary-export', join(dir, 'on-k6.json'), '-e', `BASE_URL=${target.url}`, ours]],
        [
          process.execPath,
          [
            join(ROOT, 'bin', 'dialtone-engine.mjs'),
            'run',
            '--quiet',
            '--summary-export',
            join(dir, 'on-builtin.json'),
            '-e',
            `BASE_URL=${target.url}`,
            theirs,
          ],
        ],
      ];
      for (const [command, args] of runs) {
        const r = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeout: 120_000 });
        expect(r.status, `${command} ${args.join(' ')}\n${r.stderr}`).toBe(0);
      }
      for (const f of ['on-k6.json', 'on-builtin.json']) {
        const metrics = JSON.parse(readFileSync(join(dir, f), 'utf8')).metrics;
        expect(metrics.iterations.count, f).toBe(4);
        expect(metrics.http_reqs.count, f).toBe(8);
      }
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe.runIf(!k6 && process.env.DIALTONE_REQUIRE_K6 === '1')('where a k6 is required (DIALTONE_REQUIRE_K6=1)', () => {
  it('finds one', () => {
    expect.fail(`no k6 ${K6_VERSION} or newer found (DIALTONE_K6 or k6 on PATH), so the k6-engine tests would be skipped`);
  });
});
