// Where the project's package.json installs dialtone from, as a CI checkout would see it. dialtone is not on the npm
// registry yet: a team installs it from a tarball or a clone, and npm records that path. A path outside the project
// (`file:../dialtone/dialtone-0.1.0.tgz`) is not in a clean checkout, so the workflows' `npm ci` would fail there. init
// keeps a copy of such a tarball in vendor/ and says how to point the dependency at it; it never edits package.json.
import { constants, copyFileSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { makeFolders, type Outcome } from './write.js';

/** The folder a project keeps dialtone's tarball in, so its lock file points inside the repository. */
export const VENDOR_DIR = 'vendor';

/** What init found of the dependency: what it did about it, and what the user must do next. */
export interface DependencyCheck {
  readonly outcome?: Outcome;
  readonly next?: string;
}

/** dialtone's spec in the project's package.json (dependencies or devDependencies), if it names one. */
export function dialtoneSpec(dir: string): string | undefined {
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined; // no package.json, or one npm would refuse too: nothing init can judge
  }
  return pkg.devDependencies?.dialtone ?? pkg.dependencies?.dialtone;
}

/** The local path a spec installs from (`file:`, `git+file://`), else undefined (a registry range, a remote git URL). */
function localPath(spec: string): string | undefined {
  if (spec.startsWith('file:')) return spec.slice('file:'.length);
  if (spec.startsWith('git+file://')) return spec.slice('git+file://'.length).replace(/#.*$/, '');
  return undefined;
}

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * Checks that a clean checkout of the project can install dialtone: a `file:` or `git+file:` spec outside the project
 * cannot. A tarball there is copied to vendor/ (never over a file that exists) and the line says how to point the
 * dependency at the copy; a clone or a missing file gets the line that says how to make one.
 *
 * @example
 * checkDependency(project); // { outcome: { path: 'vendor/dialtone-0.1.0.tgz', action: 'wrote', … }, next: 'next: npm install --save-dev ./vendor/…' }
 */
export function checkDependency(dir: string): DependencyCheck {
  const spec = dialtoneSpec(dir);
  const path = spec === undefined ? undefined : localPath(spec);
  if (spec === undefined || path === undefined) return {};
  const source = resolve(dir, path);
  const inside = relative(dir, source);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return {};
  const why = `package.json installs dialtone from ${spec}, outside this repository, which a CI checkout does not have (npm ci fails there)`;
  if (!spec.startsWith('file:') || !source.endsWith('.tgz') || !isFile(source)) {
    return {
      next:
        `next: ${why}: make a tarball (npm pack in a clone of dialtone), copy it to ${VENDOR_DIR}/, ` +
        `npm install --save-dev ./${VENDOR_DIR}/dialtone-VERSION.tgz and commit ${VENDOR_DIR}/ with package-lock.json`,
    };
  }
  const copy = `${VENDOR_DIR}/${basename(source)}`;
  makeFolders(dir, [copy]);
  let outcome: Outcome = { path: copy, action: 'wrote', detail: `a copy of ${path}` };
  try {
    copyFileSync(source, join(dir, copy), constants.COPYFILE_EXCL);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new EnvironmentError(`init: cannot write ${copy} (${(e as NodeJS.ErrnoException).code})`);
    outcome = { path: copy, action: 'skipped', detail: 'exists' };
  }
  return { outcome, next: `next: ${why}: npm install --save-dev ./${copy}, then commit ${copy} with package.json and package-lock.json` };
}
