import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineTicks, ticksOf, treeOf, treeTicks } from './proc.js';

describe('CPU time from /proc', () => {
  it("counts a child's CPU in its parent's tree once, before and after the child ends", async () => {
    // The child spins a full CPU for 600 ms (about 60 ticks), far more than this test process uses meanwhile.
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 600; while (Date.now() < end);'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    expect(treeOf(process.pid)).toContain(child.pid);
    const seen = { total: 0 };
    const start = treeTicks(process.pid, seen);
    await exited;
    const end = treeTicks(process.pid, seen);
    // Counted: its time moved into this process's reaped-children time once it ended.
    expect(end - start).toBeGreaterThanOrEqual(30);
    // Once, not twice: the tree is now this process alone, so the total is its own ticks (give or take its own work).
    expect(treeOf(process.pid)).toEqual([process.pid]);
    expect(Math.abs(end - ticksOf(process.pid))).toBeLessThanOrEqual(5);
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
