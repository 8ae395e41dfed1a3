import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineTicks, ticksOf, treeOf, treeTicks } from './proc.js';

describe('CPU time from /proc', () => {
  it('finds a child in its parent tree and counts the tree time without ever falling', async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 300; while (Date.now() < end);'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    expect(treeOf(process.pid)).toContain(child.pid);
    const seen = { total: 0 };
    const readings = [treeTicks(process.pid, seen)];
    await exited;
    readings.push(treeTicks(process.pid, seen), treeTicks(process.pid, seen));
    expect(readings).toEqual([...readings].sort((a, b) => a - b));
    expect(ticksOf(process.pid)).toBeGreaterThan(0);
  });

  it('gives 0 ticks and a tree of one for a process that is gone', () => {
    expect(ticksOf(2 ** 22 + 1)).toBe(0);
    expect(treeOf(2 ** 22 + 1)).toEqual([2 ** 22 + 1]);
  });

  it('reads the machine as busy and total ticks, busy no more than total', () => {
    const m = machineTicks();
    expect(m.total).toBeGreaterThan(0);
    expect(m.busy).toBeLessThanOrEqual(m.total);
  });
});
