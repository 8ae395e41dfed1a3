import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineId, resolveEngine } from '../src/load/engine.js';
import { HISTOGRAMS_FILE, RAW_FILE, segmentArgs } from '../src/load/extras.js';
import { histogramsOfRaw } from '../src/load/raw-histograms.js';
import { runOnEngine } from './engine-segment.js';
import { dialtoneInProcess as dialtone } from './in-process-cli.js';
import { ROOT } from './run-cli.js';

// Two real segments (on the user's k6 when installed, else the built-in engine in this process) of a tiny script whose
// thresholds hold, then `dialtone merge` judged against a history whose nights were ten times faster: the verdict must
// say regressed, and exit 6 only under --fail-on-regression. A second of load is enough: the verdict reads the samples'
// spread, not their number. The merges run through dialtone's main in this process.
const SCRIPT = `
import { Trend } from 'k6/metrics';
const t = new Trend('merge_latency', true);
export const options = {
  scenarios: { s: { executor: 'constant-arrival-rate', rate: 40, timeUnit: '1s', duration: '1s', preAllocatedVUs: 4 } },
  thresholds: { merge_latency: ['p(95)<5000'] },
};
export default function () { t.add(Math.random() ** 3 * 900); }`;

let base = '';
let segs: string[] = [];
/** The engine the segments ran on, as their result.json and the history's nights name it. */
let engine: ReturnType<typeof engineId> | undefined;
const history = () => join(base, 'history.jsonl');

beforeAll(async () => {
  const runner = resolveEngine(ROOT, 'auto');
  engine = engineId(runner);
  base = mkdtempSync(join(tmpdir(), 'dialtone-nightly-'));
  writeFileSync(join(base, 'script.js'), SCRIPT);
  segs = [1, 2].map((i) => join(base, `seg${i}`, 'load', 'merge-cli'));
  await Promise.all(
    segs.map(async (dir, i) => {
      mkdirSync(dir, { recursive: true });
      const args = ['-q', '--summary-export', join(dir, 'summary.json'), ...segmentArgs({ index: i + 1, count: 2 }), '--out', `json=${join(dir, RAW_FILE)}`];
      const run = await runOnEngine(runner, [...args, join(base, 'script.js')], dir);
      expect(run.code, run.stderr).toBe(0);
      const result = {
        scenario: 'merge-cli',
        profile: 'smoke',
        workload: 'smoke',
        target: 'reference',
        engine,
        started_at: new Date().toISOString(),
        duration_ms: 2000,
        k6_exit_code: 0,
        passed: true,
        figures: {},
        headline: [],
        thresholds: [],
      };
      writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
    }),
  );
  const night = (i: number) => ({
    scenario: 'merge-cli',
    profile: 'smoke',
    workload: 'smoke in 2 segments',
    target: 'reference',
    engine,
    started_at: new Date(Date.UTC(2026, 10, 10 + i, 2, 17)).toISOString(),
    duration_ms: 2000,
    k6_exit_code: 0,
    passed: true,
    figures: {},
    headline: [],
    thresholds: [],
    metrics: { 'merge_latency p95': { value: 70 + (i % 3), unit: 'ms', better: 'lower' } },
  });
  writeFileSync(history(), `${Array.from({ length: 8 }, (_, i) => JSON.stringify(night(i))).join('\n')}\n`);
}, 60_000);

describe('dialtone merge with a history', () => {
  it('exits 6 under --fail-on-regression when a merged metric left its band, and says which', async () => {
    const out = join(base, 'out1');
    const r = await dialtone(['merge', ...segs, '--report-dir', out, '--history', history(), '--fail-on-regression']);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toContain('merge merge-cli: 2 segments, thresholds held');
    expect(r.stdout).toMatch(/^verdict: regressed against 8 earlier runs/m);
    expect(r.stdout).toMatch(/^ {2}regressed merge_latency p95: \d+ ms \(baseline median 71\.00 ms, band/m);
    const dir = join(out, 'load', 'merge-cli');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(
      /<testcase classname="dialtone\.load\.merge-cli" name="no metric regressed against the last 8 runs" time="0"><failure /,
    );
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(page).toMatch(/<h2>Regression verdict <span class="badge fail">regressed<\/span><\/h2>/);
    expect(page).toContain('<svg');
    expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  it('exits 0 without --fail-on-regression, still printing the verdict, and appends the merged run to the history', async () => {
    const before = readFileSync(history(), 'utf8').trim().split('\n').length;
    const r = await dialtone(['merge', ...segs, '--report-dir', join(base, 'out2'), '--history', history()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^verdict: regressed/m);
    expect(readFileSync(history(), 'utf8').trim().split('\n').length).toBe(before + 1);
  });

  it('refuses segments of different scenarios with one line', async () => {
    const other = join(base, 'seg3', 'load', 'other');
    mkdirSync(other, { recursive: true });
    for (const f of ['summary.json', RAW_FILE]) writeFileSync(join(other, f), readFileSync(join(segs[0] as string, f)));
    writeFileSync(join(other, 'result.json'), JSON.stringify({ scenario: 'other', workload: 'smoke' }));
    const r = await dialtone(['merge', segs[0] as string, other, '--report-dir', join(base, 'out3')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`dialtone: merge: ${other}: a segment of 'other' (smoke), not of 'merge-cli' (smoke)`);
  });

  it('merges exactly from raw samples with --exact, and refuses it with one line for a segment that kept only histograms', async () => {
    const exact = await dialtone(['merge', ...segs, '--exact', '--report-dir', join(base, 'out5'), '--history', join(base, 'h5.jsonl')]);
    expect(exact.code, exact.stderr).toBe(0);
    const other = join(base, 'seg5', 'load', 'merge-cli');
    mkdirSync(other, { recursive: true });
    for (const f of ['summary.json', 'result.json']) writeFileSync(join(other, f), readFileSync(join(segs[0] as string, f)));
    const summary = JSON.parse(readFileSync(join(other, 'summary.json'), 'utf8'));
    writeFileSync(join(other, HISTOGRAMS_FILE), JSON.stringify(await histogramsOfRaw(join(segs[0] as string, RAW_FILE), summary)));
    const r = await dialtone(['merge', segs[0] as string, other, '--exact', '--report-dir', join(base, 'out6')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`dialtone: merge: --exact: ${other} kept no raw samples; run its segment with --raw-samples`);
  });

  it('names the engine the segments ran on, and refuses segments of different engines with one line', async () => {
    const merged = JSON.parse(readFileSync(join(base, 'out2', 'load', 'merge-cli', 'result.json'), 'utf8'));
    expect(merged.engine).toEqual(engine);
    const other = join(base, 'seg4', 'load', 'merge-cli');
    mkdirSync(other, { recursive: true });
    for (const f of ['summary.json', RAW_FILE]) writeFileSync(join(other, f), readFileSync(join(segs[0] as string, f)));
    const result = JSON.parse(readFileSync(join(segs[0] as string, 'result.json'), 'utf8'));
    const kind = engine?.kind === 'k6' ? 'builtin' : 'k6';
    writeFileSync(join(other, 'result.json'), JSON.stringify({ ...result, engine: { kind, version: 'v9.9.9' } }));
    const r = await dialtone(['merge', segs[0] as string, other, '--report-dir', join(base, 'out4')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`dialtone: merge: ${other}: a segment run on ${kind}, the others on ${engine?.kind}: merge segments of one engine`);
  });
});
