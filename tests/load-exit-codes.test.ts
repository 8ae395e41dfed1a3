import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialtone } from './run-cli.js';

// k6-jslib-testing style: each scenario with the exit code the engine (the user's k6 when installed, else the built-in
// one) must give, and the headline figure that must be above zero (the scenario really did its work).
const TABLE = [
  { scenario: 'chat-turns', profile: 'smoke', expect: 0, figure: 'turns_per_s', why: 'the reference target meets every chat SLO' },
  {
    scenario: 'messaging-sockets',
    profile: 'smoke',
    expect: 0,
    figure: 'messages_per_s',
    why: 'the reference target holds 10 sockets a session, refuses the 11th with 429 and loses no event on reconnect',
  },
  {
    scenario: 'outbound-polling',
    profile: 'smoke',
    expect: 0,
    figure: 'calls_per_s',
    why: 'every call reaches success or failure, never goes backwards and keeps its status well inside retention',
  },
  {
    scenario: 'conversations-paging',
    profile: 'smoke',
    expect: 0,
    figure: 'records_per_s',
    why: 'every concurrent cursor walk of the seeded history returns each record once, none skipped',
  },
  {
    scenario: 'voice-browser',
    profile: 'smoke',
    expect: 0,
    figure: 'calls',
    why: 'every call placed from a real Chromium with a fake microphone connects, hears the agent and decodes its audio',
  },
] as const;

describe('load scenarios run on the engine', () => {
  for (const row of TABLE) {
    it(`exits ${row.expect} for ${row.scenario} at ${row.profile}: ${row.why}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dialtone-load-'));
      const r = await dialtone(['load', row.scenario, '--workload', row.profile, '--report-dir', dir], { timeoutMs: 150_000 });
      expect(r.code, r.stdout + r.stderr).toBe(row.expect);
      const result = JSON.parse(readFileSync(join(dir, 'load', row.scenario, 'result.json'), 'utf8'));
      expect(result.thresholds.length).toBeGreaterThan(0);
      expect(result.figures[row.figure]).toBeGreaterThan(0);
      expect(result.delivery.delivered, result.headline.join('\n')).toBe(true);
      expect(['k6', 'builtin']).toContain(result.engine.kind);
      expect(r.stdout).toContain(`load ${row.scenario} (${row.profile}) on ${result.engine.kind === 'k6' ? 'k6 v2' : 'dialtone built-in engine'}`);
      // k6's web dashboard is k6's own: the built-in engine writes none.
      if (result.engine.kind === 'k6') expect(readFileSync(join(dir, 'load', row.scenario, 'dashboard.html'), 'utf8')).toContain('<html');
      // JUnit: one test case per threshold, none failed when the engine held them all.
      const junit = readFileSync(join(dir, 'load', row.scenario, 'junit.xml'), 'utf8');
      expect(junit.match(/<testcase /g)?.length).toBe(result.thresholds.length);
      expect(junit.includes('<failure')).toBe(row.expect !== 0);
    }, 180_000);
  }

  it('exits 5 and says why when the run asks far more than its VUs can send', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-load-'));
    const r = await dialtone(['load', 'chat-turns', '--rate', '2000', '--max-vus', '3', '--duration', '3s', '--report-dir', dir], { timeoutMs: 150_000 });
    expect(r.code, r.stdout + r.stderr).toBe(5);
    expect(r.stdout).toContain('thresholds held, but the load asked for was not delivered (exit 5)');
    expect(r.stdout).toMatch(/LOAD NOT DELIVERED: [\d,]+ iterations dropped \([\d.]+ % of [\d,]+; tolerance 0\.1 %\); VUs exhausted \(peak 3 of maxVUs 3;/);
    const result = JSON.parse(readFileSync(join(dir, 'load', 'chat-turns', 'result.json'), 'utf8'));
    expect(result.passed).toBe(false);
    expect(result.k6_exit_code).toBe(0);
    expect(result.delivery).toMatchObject({ delivered: false, asked_rate: 2000, max_vus: 3, vus_exhausted: true });
    expect(result.delivery.dropped).toBeGreaterThan(0);
  }, 180_000);
});
