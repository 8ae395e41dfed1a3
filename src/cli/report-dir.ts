import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * The report directory, made and proven writable before anything runs: a run must not spend minutes testing and then
 * find it cannot write its verdict. A file in the way or a directory without write permission is a usage error.
 *
 * @example
 * usableReportDir('reports') // '/abs/reports', or UsageError "--report-dir: /etc/passwd is a file, not a directory"
 */
export function usableReportDir(dir: string | undefined): string {
  const abs = resolve(dir ?? 'reports');
  try {
    if (statSync(abs, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`--report-dir: ${abs} is a file, not a directory`);
    mkdirSync(abs, { recursive: true });
    accessSync(abs, constants.W_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`--report-dir: cannot write to ${abs} (${code})`);
  }
  return abs;
}
