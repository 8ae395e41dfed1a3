import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialtone } from './run-cli.js';

// The exit code of a run whose load was not delivered, against the embedded target dialtone starts itself. Each
// scenario's exit 0 with its load delivered is proven against the target over TLS in its own process (tls-e2e.test.ts).
describe('load runs judged on delivery', () => {
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
