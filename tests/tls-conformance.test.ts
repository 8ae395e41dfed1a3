import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialtone } from './run-cli.js';
import { tlsTarget } from './tls-load.js';

// The shape of every real deployment: the target in a process of its own, every host on https and wss with a CA the
// run trusts only because the profile names it, and a gateway that serves no voice client page. Here, the whole
// conformance suite against it; each scenario's load against the same shape of target, which is judged on time, is in
// tests/tls-e2e.test.ts.

interface Case {
  rule: string;
  outcome: string;
}

describe('the conformance suite against the reference target over TLS in its own process, with its voice client page turned off', () => {
  const { work, profile } = tlsTarget();

  it('writes a profile whose hosts are all https and whose tls.ca_file names the CA it made', () => {
    const p = JSON.parse(readFileSync(profile, 'utf8'));
    for (const url of [...Object.values(p.hosts), p.control.url]) expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(p.tls).toEqual({ ca_file: 'ref-ca.pem', insecure: false });
    expect(readFileSync(join(work, 'ref-ca.pem'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  it('passes the whole conformance suite against it, every surface and voice included, with no failure', async () => {
    const r = await dialtone(['conformance', '--target', profile, '--report-dir', join(work, 'reports')], { timeoutMs: 240_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(work, 'reports', 'conformance', 'results.json'), 'utf8'));
    expect(results.totals.fail).toBe(0);
    expect(results.totals.uncovered).toBe(0);
    const surfaces = new Set(results.cases.filter((c: Case) => c.outcome === 'pass').map((c: Case) => c.rule.split('.')[0]));
    expect([...surfaces].sort()).toEqual(
      ['agents', 'alerts', 'audio', 'bridge', 'chat', 'concurrency', 'conversations', 'external-events', 'messaging', 'outbound', 'voice', 'webhooks'].sort(),
    );
  }, 300_000);

  it('refuses the same profile without its CA: the certificate is really checked', async () => {
    const p = JSON.parse(readFileSync(profile, 'utf8'));
    const untrusting = join(work, 'no-ca.json');
    writeFileSync(untrusting, JSON.stringify({ ...p, tls: undefined }));
    const r = await dialtone(['conformance', '--target', untrusting, '--only', 'chat.close.*', '--report-dir', join(work, 'reports-no-ca')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("is not signed by a CA this machine trusts (it is signed by 'dialtone reference target CA'): name that CA in tls.ca_file of");
  }, 120_000);
});
