import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineId } from '../core/engine-version.js';
import type { K6Summary } from '../core/summary.js';
import { writeRunReport } from '../load/finish-run.js';
import type { LoadResult } from '../load/page.js';
import { baselineOf, readHistory } from './history.js';

const ENGINE: EngineId = { kind: 'builtin', version: 'v0.1.0' };
const CUT = { signal: 'SIGTERM' as const, at: '2026-11-20T02:17:09.000Z' };

/** One earlier night of chat-turns smoke, its p95 near 70 ms. */
const night = (i: number): LoadResult => ({
  scenario: 'chat-turns',
  profile: 'smoke',
  workload: 'smoke',
  target: 'reference',
  engine: ENGINE,
  started_at: new Date(Date.UTC(2026, 10, 1 + i, 2, 17)).toISOString(),
  duration_ms: 30_000,
  k6_exit_code: 0,
  passed: true,
  figures: {},
  headline: [],
  thresholds: [],
  metrics: { 'turn_latency p95': { value: 70 + (i % 3), unit: 'ms', better: 'lower' } },
});

/** Ten times slower than every night: a regression, had the run been judged. */
const slow: K6Summary = { metrics: { turn_latency: { avg: 700, med: 700, 'p(95)': 700, 'p(99)': 700 } as K6Summary['metrics'][string] } };

describe('a load run a stop signal cut short', () => {
  it('is recorded and marked on every report, but judged against nothing and never a baseline', async () => {
    const base = mkdtempSync(join(tmpdir(), 'dialtone-interrupted-'));
    const dir = join(base, 'load', 'chat-turns');
    mkdirSync(dir, { recursive: true });
    const historyPath = join(base, 'history.jsonl');
    const nights = Array.from({ length: 8 }, (_, i) => night(i));
    writeFileSync(historyPath, `${nights.map((h) => JSON.stringify(h)).join('\n')}\n`);
    const { verdict, result } = await writeRunReport({
      scenario: 'chat-turns',
      workloadName: 'smoke',
      workload: 'smoke',
      target: 'reference',
      engine: ENGINE,
      started: Date.UTC(2026, 10, 20, 2, 17),
      exitCode: 105,
      summary: slow,
      dir,
      reportDir: base,
      secrets: [],
      history: historyPath,
      record: true,
      baselineTag: 'release-1',
      interrupted: CUT,
    });
    expect(verdict.status).not.toBe('regressed');
    expect(result.interrupted).toEqual(CUT);
    expect(result.passed).toBe(false);
    expect(result.baseline_tag).toBeUndefined();
    expect(result.headline[0]).toContain('interrupted by SIGTERM at 2026-11-20T02:17:09.000Z');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure message="interrupted by SIGTERM at 2026-11-20T02:17:09.000Z"/>');
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(page).toMatch(/interrupted/i);
    expect(page).toContain('SIGTERM at 2026-11-20T02:17:09.000Z');

    const history = readHistory(historyPath);
    expect(history.at(-1)?.interrupted).toEqual(CUT);
    // Even with an exit code that reads as finished, a cut-short record is no baseline for later nights.
    const finishedLooking = { ...(history.at(-1) as LoadResult), k6_exit_code: 0 };
    expect(baselineOf([...nights, finishedLooking], { scenario: 'chat-turns', workload: 'smoke', engine: ENGINE })).toEqual(nights);
  });
});
