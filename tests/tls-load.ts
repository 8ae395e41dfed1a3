import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundTarget, dialtone } from './run-cli.js';

// The shape of every real deployment: the target in a process of its own, every host on https and wss with a CA the
// run trusts only because the profile names it, and a gateway that serves no voice client page; each scenario's load
// against it, judged on delivery (timing-sensitive). Two files run these rows: tests/tls-e2e.test.ts the API
// scenarios, tests/tls-voice-browser.test.ts the browser one, alone on the machine (Chromium at 8 calls a browser is
// the machine's limit: beside another timing file its connect p95 broke the 1.5 s SLO, 2.17 s). The whole conformance
// suite against the same shape of target is in tests/tls-conformance.test.ts.

// k6-jslib-testing style: each scenario with the exit code the engine (the user's k6 when installed, else the built-in
// one) must give against the target over TLS, and the headline figure that must be above zero (the scenario really did
// its work). `seconds`: the smoke workload held for 5 s instead of its 10–15 s: every iteration still crosses TLS and is
// judged by the same SLOs and the same delivery rule (no iteration dropped); voice-browser keeps its length, its first
// seconds are Chromium starting. `cpuBound`: the row's generator is this machine's CPU limit (Chromium runs beside the
// engine and starts anew each iteration): its delivery may fall short on the generator's CPU alone, which the engine
// rightly reports (exit 5); any other shortfall fails the test.
export const SCENARIOS = [
  { scenario: 'chat-turns', profile: 'smoke', seconds: 5, expect: 0, figure: 'turns_per_s', why: 'the reference target meets every chat SLO' },
  {
    scenario: 'messaging-sockets',
    profile: 'smoke',
    seconds: 5,
    expect: 0,
    figure: 'messages_per_s',
    why: 'the reference target holds 10 sockets a session, refuses the 11th with 429 and loses no event on reconnect',
  },
  {
    scenario: 'outbound-polling',
    profile: 'smoke',
    seconds: 5,
    expect: 0,
    figure: 'calls_per_s',
    why: 'every call reaches success or failure, never goes backwards and keeps its status well inside retention',
  },
  {
    scenario: 'conversations-paging',
    profile: 'smoke',
    seconds: 5,
    expect: 0,
    figure: 'records_per_s',
    why: 'every concurrent cursor walk of the seeded history returns each record once, none skipped',
  },
  {
    scenario: 'voice-browser',
    profile: 'smoke',
    seconds: undefined,
    expect: 0,
    cpuBound: true,
    figure: 'calls',
    why: 'every call placed from a real Chromium with a fake microphone connects, hears the agent and decodes its audio',
  },
] as const;

/**
 * The reference target over TLS in its own process, its voice client page turned off, for the tests of the enclosing
 * describe: started before them, stopped after. `work` holds its profile (`profile`), its CA and the reports.
 */
export function tlsTarget(): { work: string; profile: string } {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-tls-'));
  const profile = join(work, 'ref.json');
  let target: Awaited<ReturnType<typeof backgroundTarget>> | undefined;
  beforeAll(async () => {
    target = await backgroundTarget(profile, [], ['--tls', '--no-voice-client-page']);
  }, 60_000);
  afterAll(async () => {
    await target?.stop();
  });
  return { work, profile };
}

interface Threshold {
  metric: string;
  passed: boolean;
}

/** A threshold on how long something took (a duration or time Trend): its verdict depends on the machine's speed. */
const onTime = (t: Threshold): boolean => /duration|time|offer_to_answer/.test(t.metric.split('{')[0] ?? '');

/** The rows' load runs, each judged as above, against one reference target over TLS in its own process. */
export function tlsLoadSuite(rows: readonly (typeof SCENARIOS)[number][]): void {
  // The rows side by side against the one target: each is judged on what happened, never on time, and each writes its
  // own scenario's reports.
  describe.concurrent('load against the reference target over TLS in its own process, with its voice client page turned off', () => {
    const { work, profile } = tlsTarget();

    for (const row of rows) {
      it(`runs the ${row.scenario} ${row.profile} load against it with exit ${row.expect}: ${row.why}`, async () => {
        const length = row.seconds ? ['--duration', `${row.seconds}s`] : [];
        const r = await dialtone(['load', row.scenario, '--target', profile, '--workload', row.profile, ...length, '--report-dir', join(work, 'reports')], {
          timeoutMs: 170_000,
        });
        const dir = join(work, 'reports', 'load', row.scenario);
        // A run that wrote no result says why in its own output.
        expect(existsSync(join(dir, 'result.json')), `exit ${r.code}\n${r.stdout}${r.stderr}`).toBe(true);
        const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
        expect(result.thresholds.length).toBeGreaterThan(0);
        // Every threshold on what happened holds; one on how long it took may break on a busy runner, and then the
        // engine's exit is k6's 99: tests never assert on time (voice-browser's connect p95 broke 1.5 s with a core busy).
        const failed = result.thresholds.filter((t: Threshold) => !t.passed);
        expect(failed.filter((t: Threshold) => !onTime(t))).toEqual([]);
        // One fresh-clone npm test, alone on the machine: voice-browser's two Chromium starts saturated both cores 4 s of
        // 13, more than the quarter the delivery rule allows, with every call connected and every threshold held.
        const cpuShort = 'cpuBound' in row && row.cpuBound && JSON.stringify(result.delivery.short_by) === '["generator_cpu"]';
        if (cpuShort) console.log(`${row.scenario}: the generator's CPU fell short, as allowed for this row: ${result.headline.join(' / ')}`);
        expect(r.code, r.stdout + r.stderr).toBe(failed.length > 0 ? 99 : cpuShort ? 5 : row.expect);
        expect(result.figures[row.figure]).toBeGreaterThan(0);
        expect(result.delivery.delivered || cpuShort, result.headline.join('\n')).toBe(true);
        expect(['k6', 'builtin']).toContain(result.engine.kind);
        expect(r.stdout).toContain(`load ${row.scenario} (${row.profile}) on ${result.engine.kind === 'k6' ? 'k6 v2' : 'dialtone built-in engine'}`);
        // k6's web dashboard is k6's own: the built-in engine writes none.
        if (result.engine.kind === 'k6') expect(readFileSync(join(dir, 'dashboard.html'), 'utf8')).toContain('<html');
        // JUnit: one test case per threshold, none failed when the engine held them all.
        const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
        expect(junit.match(/<testcase /g)?.length).toBe(result.thresholds.length);
        expect(junit.includes('<failure')).toBe(failed.length > 0);
      }, 180_000);
    }
  });
}
