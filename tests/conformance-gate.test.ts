import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundTarget, dialtone } from './run-cli.js';

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('the conformance gate against a broken reference target', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-gate-'));
  const profile = join(work, 'ref.json');
  let target: Awaited<ReturnType<typeof backgroundTarget>>;
  let secrets: string[];
  let run: Awaited<ReturnType<typeof dialtone>>;
  let load: Awaited<ReturnType<typeof dialtone>>;

  beforeAll(async () => {
    target = await backgroundTarget(profile, ['chat-close-success-false']);
    secrets = readFileSync(join(work, 'ref.env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('=').slice(1).join('='));
    // Side by side into one report folder, as two CI jobs sharing it would: each writes its own part, and the index.
    [run, load] = await Promise.all([
      dialtone(['conformance', '--target', profile, '--only', 'chat.*', '--report-dir', join(work, 'reports')]),
      // 5 s of the smoke workload, not its 15 s: every conversation's close fails, so 5 s fail its SLO as surely.
      dialtone(['load', 'chat-turns', '--duration', '5s', '--target', profile, '--report-dir', join(work, 'reports')], { timeoutMs: 120_000 }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await target?.stop();
  });

  it('exits 1 and names the broken rule with Received and Documented', () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('FAIL chat.close.success-true: Received: false / Documented: success: true');
  });

  it('writes index.html, results.json and junit.xml', () => {
    for (const f of ['index.html', 'results.json', 'junit.xml']) expect(existsSync(join(work, 'reports', 'conformance', f)), f).toBe(true);
    expect(existsSync(join(work, 'reports', 'index.html'))).toBe(true);
  });

  it('records the failure with a curl line that names the secret variables instead of their values', () => {
    const results = JSON.parse(readFileSync(join(work, 'reports', 'conformance', 'results.json'), 'utf8'));
    const failed = results.cases.find((c: { outcome: string }) => c.outcome === 'fail');
    expect(failed.rule).toBe('chat.close.success-true');
    expect(failed.reproduce[0]).toMatch(/^curl -sS -X 'PUT' /);
    expect(failed.reproduce[0]).toContain(`-H 'X-API-KEY: '"$DIALTONE_REF_CHAT_API_KEY"`);
    expect(failed.reproduce[1]).toBe(`npx dialtone conformance --only 'chat.close.success-true' --target ${profile}`);
    expect(results.totals.fail).toBe(1);
    expect(results.gate).toBe('fail');
  });

  it('never writes a secret value into any report file, conformance or load', () => {
    expect(secrets.length).toBeGreaterThan(3);
    const files = filesUnder(join(work, 'reports'));
    expect(files.some((f) => f.includes(join('load', 'chat-turns')))).toBe(true);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const s of secrets) expect(text.includes(s), `${f} holds a secret`).toBe(false);
    }
  });

  it('still runs the chat load against the broken target, whose close fails the completion SLO', () => {
    expect(load.code).toBe(99);
    expect(load.stdout).toContain('FAIL chat_conversation_completed');
  });
});
