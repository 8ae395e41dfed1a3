// CPU time of a process tree and of the whole machine, read from Linux's /proc: the load generator's own cost, for the
// delivery verdict of a load run (generator-watch.ts) and for each step of a capacity search (src/capacity/cpu.ts).
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports process CPU time in clock ticks of USER_HZ, which is 100 on every architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

/**
 * CPU ticks of one process: its own (utime, stime) and those of its children it has reaped (cutime, cstime), so a
 * process that ended between two samples still counts: its time moves to its parent. 0 once it is gone.
 */
export function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime, stime, cutime, cstime are 12th to 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
}

/**
 * A process and all its descendants (Chromium and its renderers, for a browser scenario). /proc/PID/task/TID/children
 * lists the children that thread started; k6 (Go) and Chromium start processes from any of their threads, so every
 * thread's list is read.
 */
export function treeOf(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue; // gone, or not Linux
    }
    for (const tid of tasks) {
      try {
        const children = readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      } catch {
        // the thread ended while we looked
      }
    }
  }
  return out;
}

/**
 * A tree's ticks, never falling: a child that ended but is not yet reaped drops out of the tree until its parent adds
 * its time to cutime, so the total holds the highest sum seen rather than dip (and never counts the child twice).
 *
 * @example
 * const seen = { total: 0 };
 * const before = treeTicks(k6.pid, seen); // … a second later …
 * const cores = (treeTicks(k6.pid, seen) - before) / TICKS_PER_SECOND;
 */
export function treeTicks(pid: number, seen: { total: number }): number {
  seen.total = Math.max(
    seen.total,
    treeOf(pid).reduce((sum, p) => sum + ticksOf(p), 0),
  );
  return seen.total;
}

/** Busy and total ticks of the whole machine, from the first line of /proc/stat. */
export function machineTicks(): { busy: number; total: number } {
  try {
    const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}
