// Whether dist/ (scripts/build.mjs) holds every source as it is now: the stamp counts them and was written after each
// was last changed. Plain JavaScript with no dependency, read at every start of a bin script: a few milliseconds of
// stat calls, against tsx's 0.6 s of CPU.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The stamp scripts/build.mjs writes last, in dist/: `{ builtAt, files }`. */
export const STAMP = 'build.json';
export const stampOf = (root) => join(root, 'dist', STAMP);

/** What dist/ is built from: every module of src/ but the tests, and the scenarios' defaults and declarations src/ loads. */
export function sources(root = ROOT) {
  const under = (dir, keep) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && keep(e.name))
      .map((e) => join(e.parentPath, e.name));
  return [
    ...under('src', (name) => /\.(ts|mjs)$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')),
    ...under('scenarios', (name) => name.endsWith('.defaults.ts') || name.endsWith('.scenario.ts')),
  ].sort();
}

/** True when dist/ was built after every source was last changed, from as many sources as there are now. */
export function isFresh(root = ROOT) {
  try {
    const { builtAt, files } = JSON.parse(readFileSync(stampOf(root), 'utf8'));
    const now = sources(root);
    return now.length === files && now.every((f) => statSync(f).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

/**
 * Imports src/NAME: its transpiled copy in dist/ when dist/ is fresh (no tsx to start), else the TypeScript source
 * through tsx, registered here. DIALTONE_FROM_SOURCE=1 always takes the source.
 */
export async function importSource(name) {
  if (process.env.DIALTONE_FROM_SOURCE !== '1' && isFresh()) return import(new URL(`../dist/src/${name}.js`, import.meta.url).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL(`../src/${name}.ts`, import.meta.url).href);
}
