import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundTarget, dialtone } from './run-cli.js';

// Your platform, your SLOs, the way a platform team meets it: the reference target in its own process over TLS with a
// realistic agent (seeded lognormal latencies, agent turns p50 1.5 s and p95 4.5 s), and a profile that says what that
// platform must do. Each run's verdict is judged by the profile's SLOs, and the same run without them by the defaults.
const work = mkdtempSync(join(tmpdir(), 'dialtone-slos-'));
const reference = join(work, 'ref.json');
let target: Awaited<ReturnType<typeof backgroundTarget>> | undefined;

/** SLOs that fit a realistic agent: generous on what waits for the agent, the defaults on everything else. */
const SLOS = {
  'chat-turns': {
    'http_req_duration{op:chat.respond}': ['p(95)<9000'],
    'http_req_duration{op:chat.create}': ['p(95)<2000'],
    'http_req_duration{op:chat.close}': ['p(95)<2000'],
  },
  'messaging-sockets': {
    messaging_time_to_agent_joined: ['p(95)<15000'],
    messaging_time_to_first_chunk: ['p(95)<15000'],
    messaging_time_to_full_reply: ['p(95)<20000'],
    messaging_time_to_history_batch: ['p(95)<5000'],
    messaging_reconnect_replay_time: ['p(95)<5000'],
    'http_req_duration{op:messaging.access_token}': ['p(95)<2000'],
    'http_req_duration{op:messaging.session}': ['p(95)<2000'],
  },
};
/**
 * A nightly-shaped run, shortened: the nightly workload with the profile's own rate and length. 10 s of arrivals (30
 * chat conversations, 10 messaging sessions, each lasting several agent turns) give every op's p95 its samples, and the
 * delivery rule (no iteration dropped, VUs not exhausted) reads the same on them as on 20 s.
 */
const WORKLOADS = {
  'chat-turns': { nightly: { rate: 3, duration: '10s' } },
  'messaging-sockets': { nightly: { rate: 1, duration: '10s' } },
};

/** Writes a profile: the reference target's, with `extra` fields. */
function profileWith(name: string, extra: Record<string, unknown>): string {
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(reference, 'utf8')), ...extra }));
  return path;
}

const resultOf = (dir: string, scenario: string) => JSON.parse(readFileSync(join(dir, 'load', scenario, 'result.json'), 'utf8'));

beforeAll(async () => {
  target = await backgroundTarget(reference, [], ['--tls', '--latency', 'realistic', '--seed', '7']);
}, 60_000);

afterAll(async () => {
  await target?.stop();
});

// The runs side by side, each with a profile and a report folder of its own: the agent's latency is drawn per request,
// with no capacity to share, so one run's load does not slow another's answers.
describe.concurrent('SLOs from the profile, against a realistic agent in its own process', () => {
  for (const scenario of ['chat-turns', 'messaging-sockets'] as const) {
    it(`passes ${scenario} nightly-shaped with the load delivered when the profile's SLOs fit the platform`, async () => {
      const profile = profileWith(`fit-${scenario}`, { slos: SLOS, workloads: WORKLOADS });
      const dir = mkdtempSync(join(work, 'r-'));
      const r = await dialtone(['load', scenario, '--target', profile, '--workload', 'nightly', '--report-dir', dir], { timeoutMs: 240_000 });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain(`SLOs: profile ${JSON.parse(readFileSync(reference, 'utf8')).name}`);
      const result = resultOf(dir, scenario);
      expect(result.delivery.delivered, result.headline.join('\n')).toBe(true);
      // Every SLO the profile named judged the run, marked as the profile's; the rest kept their defaults.
      const named = Object.keys(SLOS[scenario]);
      for (const key of named) expect(result.thresholds.find((t: { metric: string }) => t.metric === key)?.source, key).toBe('profile');
      expect(result.thresholds.filter((t: { source: string }) => t.source === 'default').length).toBeGreaterThan(0);
      expect(result.expectations.workload).toMatchObject({
        rate: { source: 'profile' },
        duration: { value: '10s', source: 'profile' },
        preAllocatedVUs: { source: 'sized' },
      });
    }, 300_000);
  }

  it('fails the same chat-turns run with the default SLOs, naming each breached SLO and that it was the default', async () => {
    const profile = profileWith('defaults', { workloads: WORKLOADS });
    const dir = mkdtempSync(join(work, 'r-'));
    const r = await dialtone(['load', 'chat-turns', '--target', profile, '--workload', 'nightly', '--report-dir', dir], { timeoutMs: 240_000 });
    expect(r.code, r.stdout + r.stderr).toBe(99);
    expect(r.stdout).toContain('SLOs: defaults');
    expect(r.stdout).toMatch(/FAIL http_req_duration\{op:chat\.respond\} p\(95\)<500 \(value \d+(\.\d+)?; the default SLO\)/);
    const page = readFileSync(join(dir, 'load', 'chat-turns', 'index.html'), 'utf8');
    expect(page).toContain('SLOs: defaults (0 from the profile');
  }, 300_000);

  it('refuses a profile SLO k6 would not parse with one line and exit 2, before anything runs', async () => {
    const profile = profileWith('bad', { slos: { 'chat-turns': { 'http_req_duration{op:chat.respond}': ['p95 < 3000'] } } });
    const r = await dialtone(['load', 'chat-turns', '--target', profile, '--report-dir', join(work, 'never')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `dialtone: ${profile}: slos.chat-turns["http_req_duration{op:chat.respond}"][0]: expected a threshold expression (<aggregation> ` +
        `<operator> <number>, e.g. p(95)<500), found 'p95 < 3000'`,
    );
    expect(r.stdout).toBe('');
  });

  it('prints the effective SLOs and workload of a profile, each value with where it came from', async () => {
    const profile = profileWith('print', { slos: SLOS, workloads: WORKLOADS });
    const r = await dialtone(['slos', '--target', profile, '--scenario', 'chat-turns', '--workload', 'nightly']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/http_req_duration\{op:chat\.respond\}\s+p\(95\)<9000\s+profile/);
    expect(r.stdout).toMatch(/http_req_failed\s+rate<0\.01\s+default/);
    expect(r.stdout).toContain('rate 3 (profile), duration 10s (profile)');
    expect(r.stdout).toContain("iteration at the SLOs: 49.0 s (Little's law sizes the pool from it)");
  });
});
