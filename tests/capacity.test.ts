import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapacityResult } from '../src/capacity/run.js';
import { dialtone } from './run-cli.js';

// The search against the reference target at a known capacity: chat served like a one-worker queue of N requests per
// second, so one 7-request conversation a second costs 7 of them. Steps of 10 s: in 7 s a queue 17 % over the known
// capacity need not yet have pushed p95 past its 500 ms SLO with a core busy, so a shorter step can hold a rate the
// target cannot keep up. One known capacity is searched for real here; the search's walk at other capacities (chat=10
// among them), with noise, and a budget that cuts it short (exit 4) are checked in-process over many seeds
// (src/capacity/search.test.ts and exit.test.ts, on a simulated surface).
const SEARCH = ['--start-rate', '1', '--step', '10s', '--warmup', '2s', '--max-steps', '8'];
const KNOWN = { perSecond: 18, conversations: 18 / 7 };

async function search(extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string; result: CapacityResult; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-capacity-'));
  const r = await dialtone(['capacity', 'chat-turns', '--report-dir', dir, ...SEARCH, ...extra], { timeoutMs: 230_000 });
  const result = JSON.parse(readFileSync(join(dir, 'capacity', 'chat-turns', 'capacity.json'), 'utf8')) as CapacityResult;
  return { ...r, result, dir };
}

describe('dialtone capacity', () => {
  it.concurrent('finds a known capacity within 15 %, and names the load generator when it is the limit', async () => {
    const [high, generator] = await Promise.all([
      // From 1.5 a second the search brackets 2.57 in five steps (1.5, 3, 2.25, then two refining); from 1 it took six.
      search(['--capacity', `chat=${KNOWN.perSecond}`, '--start-rate', '1.5']),
      // One VU cannot start conversations faster than it finishes them: the engine drops iterations while a 70 requests/s target holds.
      search(['--capacity', 'chat=70', '--max-vus', '1', '--max-steps', '3']),
    ]);
    expect(high.code, high.stderr).toBe(0);
    expect(high.result.analysis.limited_by).toBe('target');
    const found = high.result.analysis.max_sustainable_rate as number;
    console.log(
      `capacity: found ${found.toFixed(2)} conversations/s of a known ${KNOWN.conversations.toFixed(2)} ` +
        `(${((found / KNOWN.conversations - 1) * 100).toFixed(1)} %) in ${high.result.steps.length} steps`,
    );
    expect(Math.abs(found - KNOWN.conversations) / KNOWN.conversations).toBeLessThanOrEqual(0.15);
    expect(high.stdout).toContain(`Sustains ${found.toFixed(2)} conversations/s with every SLO held`);
    // capacity.json and the page name the engine that ran the steps.
    expect(['k6', 'builtin']).toContain(high.result.engine.kind);
    expect(high.result.engine.version).not.toBe('');
    expect(generator.code, generator.stderr).toBe(0);
    expect(generator.result.analysis.limited_by).toBe('load-generator');
    expect(generator.result.analysis.max_sustainable_rate).toBeNull();
    expect(generator.stdout).toContain('The load generator was the limit: ');

    // The report: one CSV row per step, plots inlined as SVG, the index links to it.
    const csv = readFileSync(join(high.dir, 'capacity', 'chat-turns', 'steps.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toMatch(/^step,stage,offered_rate,throughput,/);
    expect(csv).toHaveLength(high.result.steps.length + 1);
    const page = readFileSync(join(high.dir, 'capacity', 'chat-turns', 'index.html'), 'utf8');
    expect(page.match(/<svg/g)?.length).toBeGreaterThanOrEqual(3);
    expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(readFileSync(join(high.dir, 'index.html'), 'utf8')).toContain('href="capacity/chat-turns/index.html"');
  }, 240_000);
});
