import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineId } from '../core/engine-version.js';
import type { K6Summary } from '../core/summary.js';
import { writeRunReport } from '../load/finish-run.js';
import type { LoadResult } from '../load/page.js';
import { baselineOf, readHistory } from './history.js';

const K6: EngineId = { kind: 'k6', version: 'k6 v2.2.0 (go1.25.1, linux/amd64)' };
const BUILTIN: EngineId = { kind: 'builtin', version: 'v0.1.0' };

/** One earlier night of chat-turns smoke, its p95 near 70 ms; `engine` undefined is a record from before engines were named. */
const night = (i: number, engine: EngineId | undefined): LoadResult => ({
  scenario: 'chat-turns',
  profile: 'smoke',
  workload: 'smoke',
  target: 'reference',
  ...(engine ? { engine } : {}),
  started_at: new Date(Date.UTC(2026, 10, 1 + i, 2, 17)).toISOString(),
  duration_ms: 30_000,
  k6_exit_code: 0,
  passed: true,
  figures: {},
  headline: [],
  thresholds: [],
  metrics: { 'turn_latency p95': { value: 70 + (i % 3), unit: 'ms', better: 'lower' } },
});

/** Tonight's summary: ten times slower than every earlier night. */
const slow: K6Summary = { metrics: { turn_latency: { avg: 700, med: 700, 'p(95)': 700, 'p(99)': 700 } as K6Summary['metrics'][string] } };

/** Writes a history, then reports tonight's run on `engine` against it, and returns the verdict and the line appended. */
async function tonight(engine: EngineId, history: LoadResult[], extra: { baselineTag?: string; record?: boolean } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'dialtone-history-'));
  const dir = join(base, 'load', 'chat-turns');
  mkdirSync(dir, { recursive: true });
  const historyPath = join(base, 'history.jsonl');
  writeFileSync(historyPath, `${history.map((h) => JSON.stringify(h)).join('\n')}\n`);
  const { verdict } = await writeRunReport({
    scenario: 'chat-turns',
    workloadName: 'smoke',
    workload: 'smoke',
    target: 'reference',
    engine,
    started: Date.UTC(2026, 10, 20, 2, 17),
    exitCode: 0,
    summary: slow,
    dir,
    reportDir: base,
    secrets: [],
    history: historyPath,
    record: extra.record ?? true,
    baselineTag: extra.baselineTag,
  });
  const recorded = readHistory(historyPath).at(-1);
  return { verdict, recorded, page: readFileSync(join(dir, 'index.html'), 'utf8'), result: JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) };
}

const k6Nights = Array.from({ length: 8 }, (_, i) => night(i, K6));
const unnamedNights = Array.from({ length: 8 }, (_, i) => night(i, undefined));
const builtinNights = Array.from({ length: 8 }, (_, i) => night(i + 8, BUILTIN));

describe('the nightly verdict and the engine', () => {
  it('compares tonight only with earlier runs of the same kind of engine', () => {
    const mixed = [...k6Nights, ...builtinNights];
    expect(baselineOf(mixed, { scenario: 'chat-turns', workload: 'smoke', engine: BUILTIN })).toEqual(builtinNights);
    expect(baselineOf(mixed, { scenario: 'chat-turns', workload: 'smoke', engine: K6 })).toEqual(k6Nights);
  });

  it('counts a record without an engine as k6, which is what ran before', () => {
    expect(baselineOf(unnamedNights, { scenario: 'chat-turns', workload: 'smoke', engine: K6 })).toEqual(unnamedNights);
    expect(baselineOf(unnamedNights, { scenario: 'chat-turns', workload: 'smoke', engine: BUILTIN })).toEqual([]);
    expect(baselineOf(unnamedNights, { scenario: 'chat-turns', workload: 'smoke' })).toEqual(unnamedNights);
  });

  it('gives a built-in run after k6 nights no verdict, however different its figures', async () => {
    const r = await tonight(BUILTIN, [...k6Nights, ...unnamedNights]);
    expect(r.verdict.status).toBe('no baseline');
    expect(r.verdict.baselineRuns).toBe(0);
  });

  it('judges a run against the earlier nights of its engine only, and records the engine with its version', async () => {
    const onBuiltin = await tonight(BUILTIN, [...k6Nights, ...builtinNights]);
    expect(onBuiltin.verdict).toMatchObject({ status: 'regressed', baselineRuns: 8 });
    expect(onBuiltin.recorded?.engine).toEqual(BUILTIN);
    expect(onBuiltin.result.engine).toEqual(BUILTIN);
    expect(onBuiltin.page).toContain('engine dialtone built-in engine v0.1.0');
    const onK6 = await tonight(K6, [...unnamedNights, ...builtinNights]);
    expect(onK6.verdict).toMatchObject({ status: 'regressed', baselineRuns: 8 });
    expect(onK6.recorded?.engine).toEqual(K6);
    expect(onK6.page).toContain('engine k6 v2.2.0');
  });
});

describe('pinned baselines in the history', () => {
  it('records the tag a run was pinned with, and reads records from before tags alongside it', async () => {
    const r = await tonight(K6, k6Nights, { baselineTag: '1.4' });
    expect(r.recorded?.baseline_tag).toBe('1.4');
    expect(r.result.baseline_tag).toBe('1.4');
    expect(k6Nights.every((n) => !('baseline_tag' in n))).toBe(true);
    expect(r.verdict.baselineRuns).toBe(8);
  });

  it('pins no execution segment: a part of a run is neither recorded nor a baseline', async () => {
    const r = await tonight(K6, k6Nights, { baselineTag: '1.4', record: false });
    expect(r.recorded?.baseline_tag).toBeUndefined();
    expect(r.result.baseline_tag).toBeUndefined();
  });

  it('judges tonight against a tagged night of the history file and says so on the page', async () => {
    const tagged = k6Nights.map((n, i) => (i === 2 ? { ...n, baseline_tag: '1.3' } : n));
    const r = await tonight(K6, tagged);
    expect(r.verdict.tags?.map((t) => [t.tag, t.at.run])).toEqual([['1.3', 3]]);
    expect(r.page).toMatch(/<li>vs 1\.3 \(night 2026-11-03, run 3 of 9\): /);
  });
});
