// dialtone as a platform team installs it: packed, installed into a project of theirs from the local npm cache, run
// from node_modules with no file of this repository on hand. The project lives in the run's scratch folder outside the
// repository (tests/scratch-tmpdir.ts), so nothing resolves back into it. One install serves the whole run:
// tests/package.test.ts checks it with the unit tests, tests/package-runs.test.ts runs load from it with the timing
// files, and `npm test` gives all its phases one scratch folder (scripts/test.mjs), so the second finds what the first
// installed instead of packing and installing again.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './run-cli.js';

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  /** stdout and stderr together, for the assertion messages. */
  readonly out: string;
}

/** What `npm pack` and `npm install` left: the project, the package in it, the packed file list and the install's output. */
export interface InstalledPackage {
  readonly project: string;
  readonly installed: string;
  readonly packed: readonly string[];
  readonly install: Run;
}

// npm's own environment would leak this repository's settings into the child npm; a user's shell has none of it.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
export const packageEnv: Record<string, string | undefined> = { ...cleanEnv, K6_NO_USAGE_REPORT: 'true', DIALTONE_SKIP_CHROMIUM: '1', CI: 'true' };

export const runIn = (cwd: string, cmd: string, args: string[], timeout = 300_000): Run => {
  const r = spawnSync(cmd, args, { cwd, env: packageEnv, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};

/**
 * The package packed and installed into a project of its own, once per scratch folder: a later file (or phase) of the
 * same run reads what the first wrote. An install that failed is recorded too, so each file reports it, not hides it.
 *
 * @example
 * const { project, install } = installedPackage();
 * install.code // 0 when npm installed the tarball
 */
export function installedPackage(): InstalledPackage {
  const work = join(process.env.DIALTONE_TESTS_SCRATCH ?? tmpdir(), 'dialtone-package');
  const record = join(work, 'installed.json');
  if (existsSync(record)) return JSON.parse(readFileSync(record, 'utf8')) as InstalledPackage;
  const project = join(work, 'acme-platform-tests');
  mkdirSync(project, { recursive: true });
  const pack = runIn(ROOT, 'npm', ['pack', '--json', '--pack-destination', work]);
  if (pack.code !== 0) throw new Error(`npm pack failed (exit ${pack.code}): ${pack.out}`);
  const meta = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const tarball = join(work, meta[0]?.filename ?? '');
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'acme-platform-tests', private: true }, null, 2)}\n`);
  // From the npm cache this repository's own install filled: no registry needed.
  const install = runIn(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball]);
  const done: InstalledPackage = { project, installed: join(project, 'node_modules', 'dialtone'), packed: (meta[0]?.files ?? []).map((f) => f.path), install };
  writeFileSync(record, JSON.stringify(done));
  return done;
}
