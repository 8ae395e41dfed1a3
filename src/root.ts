import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root (where package.json, bin/, conformance/ and scenarios/ live), whatever the cwd: the nearest folder
 * above this module that holds a package.json. A module finds it so, not by counting `../`, because it runs from src/ (tsx)
 * or from its transpiled copy one level deeper in dist/src/ (scripts/build.mjs).
 *
 * @example
 * join(ROOT, 'bin', 'dialtone.mjs');
 */
export const ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return `${dir}/`;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
