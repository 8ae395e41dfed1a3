import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityResult } from '../src/capacity/run.js';
import { backgroundTarget, dialtone } from './run-cli.js';

// The capacity proof for a slow agent: the reference target in its own process serves chat at a known rate with every
// request's service time drawn from lognormal distributions of the realistic preset's shape at a fifth of its time
// scale (agent turns p50 300 ms, p95 900 ms; API calls 16/50 ms), so a conversation of 7 requests takes about 2 s.
// Capacity (×5), steps, warm-up and start rate are scaled with it: each step still holds about 200 conversations and a
// conversation the same share of a step as at full scale (10 s conversations, 40 s steps), so the keep-up rule meets
// the same statistics in a fifth of the time (76 s, not 257 s). The preset at full scale stays in tests/slos.test.ts and
// `npm run bench:capacity -- --latency realistic`. The search must find the known capacity within 15 %, the tolerance
// of the capacity search itself. This is the end-to-end search at a known capacity: its report is checked here too.
const KNOWN_PER_S = 175;
const KNOWN_CONVERSATIONS = KNOWN_PER_S / 7;
const FIFTH_OF_REALISTIC = [
  'chat.respond=lognormal:p50=300ms,p95=900ms',
  'chat.create=lognormal:p50=16ms,p95=50ms',
  'chat.close=lognormal:p50=16ms,p95=50ms',
].join(';');
const work = mkdtempSync(join(tmpdir(), 'dialtone-capacity-realistic-'));
const reference = join(work, 'ref.json');
let target: Awaited<ReturnType<typeof backgroundTarget>> | undefined;

beforeAll(async () => {
  target = await backgroundTarget(reference, [], ['--capacity', `chat=${KNOWN_PER_S}`, '--latency', FIFTH_OF_REALISTIC, '--seed', '11']);
}, 60_000);

afterAll(async () => {
  await target?.stop();
});

describe('dialtone capacity against a realistic agent', () => {
  it('finds the known capacity within 15 % with the SLOs of the profile, and says which SLOs judged it', async () => {
    const slow = ['respond', 'create', 'close'].map((op) => [`http_req_duration{op:chat.${op}}`, ['p(95)<20000']]);
    const profile = join(work, 'staging.json');
    writeFileSync(profile, JSON.stringify({ ...JSON.parse(readFileSync(reference, 'utf8')), slos: { 'chat-turns': Object.fromEntries(slow) } }));
    const dir = mkdtempSync(join(work, 'r-'));
    // Steps longer than a conversation, and a warm-up that fills the pipeline, so the steady window counts completions.
    // From 15 a second (three fifths of the known 25) the search brackets it in five steps: 15, 30, 22.5, then two refining.
    const search = ['--start-rate', '15', '--step', '8s', '--warmup', '3s', '--max-steps', '7'];
    const r = await dialtone(['capacity', 'chat-turns', '--target', profile, '--report-dir', dir, ...search], { timeoutMs: 300_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'capacity', 'chat-turns', 'capacity.json'), 'utf8')) as CapacityResult;
    expect(result.analysis.limited_by).toBe('target');
    const found = result.analysis.max_sustainable_rate as number;
    expect(Math.abs(found - KNOWN_CONVERSATIONS) / KNOWN_CONVERSATIONS, r.stdout).toBeLessThanOrEqual(0.15);
    expect(r.stdout).toContain(`Sustains ${found.toFixed(2)} conversations/s with every SLO held`);
    expect(result.slos?.slo_set).toMatch(/^profile reference/);
    expect(result.slos?.entries.filter((e) => e.source === 'profile').map((e) => e.key)).toHaveLength(3);
    // capacity.json and the page name the engine that ran the steps.
    expect(['k6', 'builtin']).toContain(result.engine.kind);
    expect(result.engine.version).not.toBe('');
    // The report: one CSV row per step, plots inlined as SVG, nothing fetched, the index links to it.
    const csv = readFileSync(join(dir, 'capacity', 'chat-turns', 'steps.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toMatch(/^step,stage,offered_rate,throughput,/);
    expect(csv).toHaveLength(result.steps.length + 1);
    const page = readFileSync(join(dir, 'capacity', 'chat-turns', 'index.html'), 'utf8');
    expect(page).toContain('<h2>SLOs: profile reference');
    expect(page.match(/<svg/g)?.length).toBeGreaterThanOrEqual(3);
    expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('href="capacity/chat-turns/index.html"');
  }, 330_000);
});
