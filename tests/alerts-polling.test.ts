import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialtoneInProcess } from './in-process-cli.js';
import { targetInProcess } from './in-process-target.js';

type Checks = Record<string, { passes: number; fails: number }>;

// Two short runs of the alerts-polling scenario on the built-in engine against one reference target in this process:
// what is judged is what each poll asked and got, never the delivery or the latency.
describe('the alerts-polling scenario', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-alerts-polling-'));
  const profile = join(work, 'ref.json');
  const wrongKey = join(work, 'wrong-key.json');
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stop = (await targetInProcess(profile)).stop;
    // The same target, its agents key replaced by one the target never issued.
    const json = JSON.parse(readFileSync(profile, 'utf8')) as { env_file: string; credentials: { agents_api_key: { env: string } } };
    const env = readFileSync(join(work, json.env_file), 'utf8').replace(
      new RegExp(`^${json.credentials.agents_api_key.env}=.*$`, 'm'),
      (l) => `${l}-not-issued`,
    );
    writeFileSync(join(work, 'wrong-key.env'), env, { mode: 0o600 });
    writeFileSync(wrongKey, JSON.stringify({ ...json, env_file: 'wrong-key.env' }));
  }, 60_000);
  afterAll(() => stop?.());

  /** A 2-second run at 2 polls a second against `target`; its exit code, checks and result. */
  async function poll(target: string, name: string) {
    const dir = join(work, name);
    const args = ['load', 'alerts-polling', '--target', target, '--engine', 'builtin', '--rate', '2', '--duration', '2s', '--report-dir', dir];
    const run = await dialtoneInProcess(args, { timeoutMs: 120_000 });
    const out = join(dir, 'load', 'alerts-polling');
    const checks = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).root_group.checks as Checks;
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { figures: Record<string, number> };
    return { run, checks, figures: result.figures };
  }

  it('lists the alert rules and the active alerts on every poll, and says so in its headline figures', async () => {
    const { run, checks, figures } = await poll(profile, 'issued');
    // On a busy machine the latency SLOs may fail (99) or the rate fall short (5); what each poll got is judged here.
    expect([0, 5, 99], run.stdout + run.stderr).toContain(run.code);
    for (const name of ['alert rules listed', 'active alerts listed'])
      expect([checks[name]?.passes ?? 0, checks[name]?.fails], name).toEqual([expect.any(Number), 0]);
    expect(checks['alert rules listed']?.passes).toBeGreaterThan(0);
    expect(figures.answered_rate).toBe(1);
    expect(figures.polls_per_s).toBeGreaterThan(0);
  }, 150_000);

  // k6's check(): "`true` if all checks have succeeded, `false` otherwise", and "Failure conditions can then instead be
  // controlled by thresholds": a refused key fails both checks, and the checks' SLO fails the run (99).
  it('fails its checks and its SLOs (exit 99) against a platform that refuses its key', async () => {
    const { run, checks, figures } = await poll(wrongKey, 'refused');
    expect(run.code, run.stdout + run.stderr).toBe(99);
    expect(checks['alert rules listed']).toMatchObject({ passes: 0 });
    expect(checks['alert rules listed']?.fails).toBeGreaterThan(0);
    expect(figures.answered_rate).toBe(0);
  }, 150_000);
});
