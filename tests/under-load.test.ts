import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_MEASURE_S, type UnderLoadResult } from '../src/capacity/under-load.js';
import { dialtone } from './run-cli.js';

// The gate under load against the reference target with a defect that shows only above 25 new conversations a second:
// idle, every chat rule passes; while chat-turns holds 40 a second, the close rule fails, and only it.

describe('dialtone conformance --under-load', () => {
  it('passes idle and fails exactly the rule that breaks only under load, with the load it asked for delivered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-under-load-'));
    const run = await dialtone(
      ['conformance', '--only', 'chat.*', '--defect', 'chat-close-fails-under-load', '--under-load', 'chat-turns@40', '--report-dir', dir],
      { timeoutMs: 240_000 },
    );
    const result = JSON.parse(readFileSync(join(dir, 'conformance', 'under-load.json'), 'utf8')) as UnderLoadResult;
    expect(result.load_delivered, `the engine held ${result.achieved_rate}/s over ${result.measured_s} s`).toBe(true);
    // Measured over the gate's run and at least MIN_MEASURE_S: a count of a second or two is off by a batch either side.
    expect(result.measured_s).toBeGreaterThanOrEqual(MIN_MEASURE_S);
    expect(['k6', 'builtin']).toContain(result.engine.kind);
    expect(result.idle_gate).toBe('pass');
    expect(result.under_load_gate).toBe('fail');
    expect(result.failed_only_under_load).toEqual(['chat.close.success-true']);
    expect(result.failed_in_both).toEqual([]);
    expect(run.stdout).toContain('FAIL UNDER LOAD chat.close.success-true (passed idle)');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const html = readFileSync(join(dir, 'conformance', 'under-load.html'), 'utf8');
    expect(html).toContain('<code>chat.close.success-true</code>');
    // The held load over time, the gate's run marked on every plot.
    expect(html).toContain('<h2>The run over time</h2>');
    expect(html.match(/>the gate ran under this load</g)?.length).toBeGreaterThanOrEqual(5);
    rmSync(dir, { recursive: true, force: true });
  }, 250_000);
});
