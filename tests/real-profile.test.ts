import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetInProcess } from './in-process-target.js';
import { dialtone } from './run-cli.js';

interface Case {
  rule: string;
  outcome: string;
  detail: string;
}

// One reference target for the file, in this process: the gates (each a process of its own) see it only through the
// profiles written from its own, and no describe's cases touch what another's check (chat and messaging, then alerts
// and webhooks).
const shared = mkdtempSync(join(tmpdir(), 'dialtone-real-target-'));
let target: Awaited<ReturnType<typeof targetInProcess>> | undefined;
/** The reference target's own profile, with its control surface. */
const refProfile = () => JSON.parse(readFileSync(join(shared, 'ref.json'), 'utf8'));

beforeAll(async () => {
  target = await targetInProcess(join(shared, 'ref.json'));
});

afterAll(async () => {
  await target?.stop();
});

/** Writes a profile next to the target's, so its env_file (the credentials) resolves from there. */
function profileBeside(name: string, profile: object): string {
  const path = join(shared, `${name}.json`);
  writeFileSync(path, JSON.stringify(profile));
  return path;
}

describe('a profile that describes only the chat surface and no control surface, as a real environment would', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-real-'));
  let real = '';
  let cases: Case[];
  let code: number | null;

  beforeAll(async () => {
    const ref = refProfile();
    real = profileBeside('real', {
      ...ref,
      name: 'chat-only',
      kind: 'real',
      control: undefined,
      hosts: { base_url: ref.hosts.base_url },
      credentials: { chat_api_key: ref.credentials.chat_api_key, chat_connector_token: ref.credentials.chat_connector_token },
    });
    const r = await dialtone(['conformance', '--target', real, '--only', 'chat.*,messaging.*', '--report-dir', join(work, 'reports')], {
      timeoutMs: 120_000,
    });
    code = r.code;
    cases = JSON.parse(readFileSync(join(work, 'reports', 'conformance', 'results.json'), 'utf8')).cases;
  }, 180_000);

  it('passes the gate: what it cannot check is skipped, not failed', () => {
    expect(code).toBe(0);
    expect(cases.filter((c) => c.outcome === 'fail')).toEqual([]);
  });

  it('skips the cases that need the control surface, saying so', () => {
    const c = cases.find((x) => x.rule === 'chat.create.variant-only-on-create');
    expect(c?.outcome).toBe('skip');
    expect(c?.detail).toContain("'control' capability");
  });

  it('skips every case of a surface the profile leaves out, naming the missing host', () => {
    const messaging = cases.filter((x) => x.rule.startsWith('messaging.'));
    expect(messaging.length).toBeGreaterThan(50);
    for (const c of messaging) {
      expect(c.outcome).toBe('skip');
      expect(c.detail).toBe('the profile names no hosts.messaging_url');
    }
  });

  it('exits 2 rather than pass when every selected case is skipped, so nothing was checked', async () => {
    const r = await dialtone(['conformance', '--target', real, '--only', 'messaging.*', '--report-dir', join(work, 'reports-empty')], {
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no case ran, so nothing was checked (every selected case was skipped: the profile names no hosts.messaging_url)');
    expect(JSON.parse(readFileSync(join(work, 'reports-empty', 'conformance', 'results.json'), 'utf8')).gate).toBe('fail');
  });

  it('still runs the chat cases that need nothing but the documented API', () => {
    expect(cases.find((x) => x.rule === 'chat.close.success-true')?.outcome).toBe('pass');
  });
});

describe('a profile with the agents family and no control surface: the alerts and webhooks cases share its one account', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-real-account-'));
  let cases: Case[];
  let code: number | null;

  beforeAll(async () => {
    const account = profileBeside('one-account', { ...refProfile(), name: 'one-account', kind: 'real', control: undefined });
    const r = await dialtone(['conformance', '--target', account, '--only', 'alerts.*,webhooks.*', '--report-dir', join(work, 'reports')], {
      timeoutMs: 120_000,
    });
    code = r.code;
    cases = JSON.parse(readFileSync(join(work, 'reports', 'conformance', 'results.json'), 'utf8')).cases;
  }, 180_000);

  it('passes: cases that fill the account to its 10 alert rules never run beside others that create rules on it', () => {
    // Side by side they met the limit together: 409 for rules the documents say are accepted, and an 11th rule created.
    expect(cases.filter((c) => c.outcome === 'fail').map((c) => `${c.rule}: ${c.detail}`)).toEqual([]);
    expect(code).toBe(0);
    expect(cases.find((c) => c.rule === 'alerts.rules.limit-10-409')?.outcome).toBe('pass');
  });
});
