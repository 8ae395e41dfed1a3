import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineId, resolveEngine } from '../src/load/engine.js';
import { workloadOf } from '../src/nightly/history.js';
import { backgroundTarget, dialtone, ROOT } from './run-cli.js';
import { syntheticHistory, writeHistory } from './synthetic-history.js';

// --control: the same scenario and workload against the reference target on the same runner, first, with a history of
// its own; tonight's verdict is read beside the control's. Both histories are seeded with nights that completed ten
// times the iterations a second this run asks for, so tonight's throughput regresses against each: the runner's doing.

const dir = mkdtempSync(join(tmpdir(), 'dialtone-control-'));
const profile = join(dir, 'target.json');
const history = join(dir, 'nightly.jsonl');
const engine = engineId(resolveEngine(ROOT, undefined));
let target: Awaited<ReturnType<typeof backgroundTarget>> | undefined;

beforeAll(async () => {
  target = await backgroundTarget(profile);
  const seeded = (seed: number) =>
    syntheticHistory({ seed, nights: 14, workload: workloadOf('smoke', { rate: 5, duration: '5s' }), engine }).map((r) => ({
      ...r,
      scenario: 'chat-turns',
      metrics: { 'iterations per_s': { value: 50 * (1 + (seed % 7) / 100), unit: 'per_s', better: 'higher' } },
    }));
  writeHistory(history, seeded(1));
  writeHistory(join(dir, 'nightly.control.jsonl'), seeded(2));
}, 60_000);

afterAll(async () => {
  await target?.stop();
});

describe('dialtone load --control', () => {
  it('runs the reference target first as the control and says a metric that regressed in both moved with the runner', async () => {
    const args = [
      'load',
      'chat-turns',
      '--target',
      profile,
      '--control',
      '--rate',
      '5',
      '--duration',
      '5s',
      '--history',
      history,
      '--report-dir',
      join(dir, 'reports'),
    ];
    const r = await dialtone(args, { timeoutMs: 240_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^control chat-turns \(smoke\) against the reference target: /m);
    expect(r.stdout).toContain('control (the reference target on this runner): regressed');
    expect(r.stdout).toContain('  moved together with the control, so the runner, not the product: iterations per_s');
    expect(existsSync(join(dir, 'reports', 'control', 'load', 'chat-turns', 'index.html'))).toBe(true);
    // Each history got its own run; the reading is in tonight's result.json and on its page, not in the history.
    expect(readFileSync(join(dir, 'nightly.control.jsonl'), 'utf8').trim().split('\n')).toHaveLength(15);
    const result = JSON.parse(readFileSync(join(dir, 'reports', 'load', 'chat-turns', 'result.json'), 'utf8')) as { control?: { together: string[] } };
    expect(result.control?.together).toEqual(['iterations per_s']);
    expect(readFileSync(join(dir, 'reports', 'load', 'chat-turns', 'index.html'), 'utf8')).toContain('moved together with the control');
  }, 300_000);

  it('refuses --control without --target, with one line', async () => {
    const r = await dialtone(['load', 'chat-turns', '--control']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('dialtone: load: --control runs the reference target beside --target; without --target the run is the control');
  });
});
