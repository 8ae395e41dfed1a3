import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapacityResult } from '../src/capacity/run.js';
import { dialtone } from './run-cli.js';

// A search whose limit is the load generator, not the target: one VU cannot start conversations faster than it
// finishes them, so the engine drops iterations while a target of 70 requests a second holds. The search's walk at
// known capacities, with noise, its interval and who limited it are checked in-process over many seeds
// (src/capacity/search.test.ts, analysis.test.ts and exit.test.ts, on a simulated surface); a known capacity is found
// for real, with its report, in tests/capacity-realistic.test.ts.
const SEARCH = ['--start-rate', '1', '--step', '10s', '--warmup', '2s', '--max-steps', '3'];

describe('dialtone capacity', () => {
  it('names the load generator when it is the limit, and claims no capacity of the target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-capacity-'));
    const r = await dialtone(['capacity', 'chat-turns', '--report-dir', dir, ...SEARCH, '--capacity', 'chat=70', '--max-vus', '1'], {
      timeoutMs: 230_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'capacity', 'chat-turns', 'capacity.json'), 'utf8')) as CapacityResult;
    expect(result.analysis.limited_by).toBe('load-generator');
    expect(result.analysis.max_sustainable_rate).toBeNull();
    expect(r.stdout).toContain('The load generator was the limit: ');
  }, 240_000);
});
