// Writing into a user's project, where every file may be theirs: a file is only ever created, never replaced (the
// `wx` flag makes "does it exist" and "create it" one step), and .gitignore is only ever appended to.
import { accessSync, appendFileSync, constants, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EnvironmentError, UsageError } from '../errors.js';
import { appendix, IGNORE_LINES, missingIgnoreLines } from './gitignore.js';

/** A file to create, its path relative to the project. */
export interface PlannedFile {
  readonly path: string;
  readonly text: string;
}

/** What happened to one file, for the line the command prints. */
export interface Outcome {
  readonly path: string;
  readonly action: 'wrote' | 'skipped' | 'appended';
  /** Why it was skipped, or what was appended. */
  readonly detail?: string;
}

/**
 * The line the command prints for an outcome.
 *
 * @example
 * describeOutcome({ path: '.gitignore', action: 'skipped', detail: 'exists' }); // 'skipped .gitignore (exists)'
 */
export function describeOutcome(outcome: Outcome): string {
  if (outcome.action === 'appended') return `appended ${outcome.detail} to ${outcome.path}`;
  return outcome.detail ? `${outcome.action} ${outcome.path} (${outcome.detail})` : `${outcome.action} ${outcome.path}`;
}

/** An fs error as one line naming the path: the environment's doing (permissions, a read-only disk), exit 3. */
const cannotWrite = (path: string, e: unknown) =>
  new EnvironmentError(`init: cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);

/**
 * Checks the project folder before anything is written, so a bad DIR writes nothing: a missing one or a file is a
 * UsageError (exit 2), one this process may not write an EnvironmentError (exit 3).
 *
 * @example
 * checkProjectDir('/no/such/dir'); // throws UsageError: init: --dir /no/such/dir: no such directory
 */
export function checkProjectDir(dir: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`init: --dir ${dir}: no such directory`);
  }
  if (!isDir) throw new UsageError(`init: --dir ${dir}: not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw cannotWrite(dir, e);
  }
}

/**
 * Creates the folders the files go in, one level at a time (mkdirSync's `recursive` loops forever under /proc, and a
 * user's DIR may be anywhere). Called for every file before any is written, so a folder it cannot make (a file in
 * the way, no permission) stops the run with no file written.
 *
 * @example
 * makeFolders(project, ['dialtone/profiles/staging.json', '.github/workflows/dialtone-gate.yml']);
 */
export function makeFolders(dir: string, paths: readonly string[]): void {
  for (const path of paths) {
    const parts = dirname(path)
      .split('/')
      .filter((p) => p !== '.' && p !== '');
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      try {
        mkdirSync(join(dir, folder));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotWrite(`${folder}/`, e);
        if (!statSync(join(dir, folder)).isDirectory()) throw new EnvironmentError(`init: cannot write ${folder}/ (a file of that name is in the way)`);
      }
    }
  }
}

/**
 * Creates one file under `dir` unless a file is already at its path, which is then left as it is, byte for byte.
 *
 * @example
 * writeNew(project, { path: 'dialtone/profiles/staging.json', text }); // { path, action: 'wrote' } or { path, action: 'skipped', detail: 'exists' }
 */
export function writeNew(dir: string, file: PlannedFile): Outcome {
  makeFolders(dir, [file.path]);
  try {
    writeFileSync(join(dir, file.path), file.text, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { path: file.path, action: 'skipped', detail: 'exists' };
    throw cannotWrite(file.path, e);
  }
  return { path: file.path, action: 'wrote' };
}

/**
 * Makes the project's .gitignore hold IGNORE_LINES: creates it, or appends only the lines it lacks and keeps every
 * byte it had; skipped when it has them all.
 *
 * @example
 * ensureIgnored(project); // { path: '.gitignore', action: 'appended', detail: '.dialtone/' }
 */
export function ensureIgnored(dir: string): Outcome {
  const path = '.gitignore';
  let existing: string | undefined;
  try {
    existing = readFileSync(join(dir, path), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(path, e);
  }
  if (existing === undefined) {
    // Created with `wx` too: a .gitignore that appeared since the read is appended to on the next run, not replaced.
    return writeNew(dir, { path, text: appendix('', IGNORE_LINES) });
  }
  const missing = missingIgnoreLines(existing);
  if (missing.length === 0) return { path, action: 'skipped', detail: `has ${IGNORE_LINES.slice(0, -1).join(', ')} and ${IGNORE_LINES.at(-1)}` };
  try {
    appendFileSync(join(dir, path), appendix(existing, missing));
  } catch (e) {
    throw cannotWrite(path, e);
  }
  return { path, action: 'appended', detail: missing.join(', ') };
}
