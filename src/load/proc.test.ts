import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineTicks, ticksOf, treeOf, treeTicks } from './proc.js';

describe('CPU time from /proc', () => {
  it("counts a child's CPU in its parent's tree once, before and after the child ends", async () => {
    // Children other files left running in this worker (esbuild's service process): part of the tree before and after.
    const others = treeOf(process.pid).slice(1);
    // The child spins until it has used 600 ms of CPU (about 60 ticks), far more than this test process uses meanwhile.
    // CPU time, not wall time: on a busy machine 600 ms of wall time gave it 29 ticks.
    // It reads its usage once per million turns: read on every turn, the reading itself (a system call) is the work.
    const spin = 'for (let used = 0; used < 600_000; ) { for (let i = 0; i < 1e6; i++); const u = process.cpuUsage(); used = u.user + u.system; }';
    const child = spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    expect(treeOf(process.pid)).toContain(child.pid);
    const seen = { total: 0 };
    const start = treeTicks(process.pid, seen);
    await exited;
    const end = treeTicks(process.pid, seen);
    // Counted: its time moved into this process's reaped-children time once it ended.
    expect(end - start).toBeGreaterThanOrEqual(30);
    // Once, not twice: the tree is now what it was before the child, so the total is their ticks (give or take their work).
    expect(treeOf(process.pid)).toEqual([process.pid, ...others]);
    expect(Math.abs(end - [process.pid, ...others].reduce((sum, p) => sum + ticksOf(p), 0))).toBeLessThanOrEqual(5);
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
