import { mkdirSync, readdirSync, rmdirSync, type Stats, statfsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** Kernel file systems that hold no files of ours (statfs magic numbers): nothing written there is a report. */
const PSEUDO_FS: Readonly<Record<number, string>> = {
  40864: 'proc',
  1650812274: 'sysfs',
  1667723888: 'cgroup2',
  2613483: 'cgroup',
  1684170528: 'debugfs',
  1935894131: 'securityfs',
  7377: 'devpts',
};

/**
 * The report directory, made and proven writable before anything runs: a run must not spend minutes testing and then
 * find it cannot write its verdict. Each missing folder is made one at a time (Node's recursive mkdir loops for ever
 * under /proc), and a file is written and removed, since root passes every permission check but a read-only mount's.
 * Folders made here that hold nothing when the process exits are removed again, so a failed run leaves none behind.
 *
 * @example
 * usableReportDir('reports') // '/abs/reports', or UsageError "--report-dir: cannot write to /proc/x (/proc is the kernel's proc file system)"
 */
export function usableReportDir(dir: string | undefined): string {
  const abs = resolve(dir ?? 'reports');
  const missing: string[] = [];
  let existing = abs;
  for (let s = statOf(existing); !s; s = statOf(existing)) {
    missing.unshift(existing);
    existing = dirname(existing);
  }
  if (!statOf(existing)?.isDirectory())
    throw new UsageError(
      existing === abs ? `--report-dir: ${abs} is a file, not a directory` : `--report-dir: cannot write to ${abs} (${existing} is a file, not a directory)`,
    );
  const fs = PSEUDO_FS[Number(statfsSync(existing).type)];
  if (fs) throw new UsageError(`--report-dir: cannot write to ${abs} (${existing} is the kernel's ${fs} file system)`);
  const made: string[] = [];
  try {
    for (const d of missing) if (madeHere(d)) made.push(d);
    const probe = join(abs, `.dialtone-write-check-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    removeEmpty(made);
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`--report-dir: cannot write to ${abs} (${code})`);
  }
  if (made.length > 0) process.once('exit', () => removeEmpty(made));
  return abs;
}

/**
 * Makes one folder; false when another run made it first (runs side by side into one new report directory), and that
 * run's folder is then left for it to remove.
 */
function madeHere(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' && statOf(dir)?.isDirectory()) return false;
    throw e;
  }
}

/** A path's stat, or undefined when nothing is there (a path under a file included); other errors are refusals. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`--report-dir: cannot write to ${path} (${code ?? 'error'})`);
  }
}

/** Removes the folders made (deepest first), with any empty folders inside them; a folder with a file in it stays. */
function removeEmpty(made: readonly string[]): void {
  const prune = (d: string): boolean => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return false;
    }
    const left = entries.filter((e) => !(e.isDirectory() && prune(join(d, e.name))));
    if (left.length > 0) return false;
    try {
      rmdirSync(d);
      return true;
    } catch {
      return false;
    }
  };
  for (const d of [...made].reverse()) if (!prune(d)) return;
}
