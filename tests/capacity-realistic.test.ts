import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityResult } from '../src/capacity/run.js';
import { backgroundTarget, dialtone } from './run-cli.js';

// The capacity proof for a slow agent: the reference target in its own process serves chat at a known 35 requests per
// second with every request's service time drawn from the realistic distributions (agent turns lognormal p50 1.5 s,
// p95 4.5 s), so a conversation of 7 requests takes about 10 s and the surface sustains 35 / 7 = 5 conversations per
// second on average. The profile's SLOs fit such an agent; the search must find the known capacity within 15 %, the
// tolerance of the capacity search itself (tests/capacity.test.ts).
const KNOWN_PER_S = 35;
const KNOWN_CONVERSATIONS = KNOWN_PER_S / 7;
const work = mkdtempSync(join(tmpdir(), 'dialtone-capacity-realistic-'));
const reference = join(work, 'ref.json');
let target: Awaited<ReturnType<typeof backgroundTarget>> | undefined;

beforeAll(async () => {
  target = await backgroundTarget(reference, [], ['--capacity', `chat=${KNOWN_PER_S}`, '--latency', 'realistic', '--seed', '11']);
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
    const search = ['--start-rate', '2', '--step', '40s', '--warmup', '12s', '--max-steps', '7'];
    const r = await dialtone(['capacity', 'chat-turns', '--target', profile, '--report-dir', dir, ...search], { timeoutMs: 540_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'capacity', 'chat-turns', 'capacity.json'), 'utf8')) as CapacityResult;
    expect(result.analysis.limited_by).toBe('target');
    const found = result.analysis.max_sustainable_rate as number;
    expect(Math.abs(found - KNOWN_CONVERSATIONS) / KNOWN_CONVERSATIONS, r.stdout).toBeLessThanOrEqual(0.15);
    expect(result.slos?.slo_set).toMatch(/^profile reference/);
    expect(result.slos?.entries.filter((e) => e.source === 'profile').map((e) => e.key)).toHaveLength(3);
    expect(readFileSync(join(dir, 'capacity', 'chat-turns', 'index.html'), 'utf8')).toContain('<h2>SLOs: profile reference');
  }, 570_000);
});
