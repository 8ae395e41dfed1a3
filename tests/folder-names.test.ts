import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './run-cli.js';

// Folders are named for what they hold. Most .gitignore templates, structure viewers, test runners and coverage tools
// take these names for build output or tests and skip them, and with them whatever source they hold.
const BUILD_OR_TEST = new Set(['target', 'build', 'dist', 'out', 'spec', 'specs', 'test', 'tests', '__tests__', 'coverage']);

/** Every folder under `dir` (at any depth) whose name reads as build output or tests, relative to `root`. */
function misnamed(root: string, dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const path = join(dir, e.name);
      return [...(BUILD_OR_TEST.has(e.name) ? [relative(root, path)] : []), ...misnamed(root, path)];
    });
}

describe('the folders under src/', () => {
  it('are never named like build output or tests', () => {
    expect(misnamed(ROOT)).toEqual([]);
  });

  it('are caught when one is, at any depth, so the check can fail', () => {
    const root = mkdtempSync(join(tmpdir(), 'dialtone-names-'));
    for (const d of ['src/target/chat', 'src/load/spec', 'src/engine/test', 'src/contract/chat']) mkdirSync(join(root, d), { recursive: true });
    expect(misnamed(root).sort()).toEqual(['src/engine/test', 'src/load/spec', 'src/target']);
  });
});

describe("ARCHITECTURE.md's layer table", () => {
  it('has a row for every folder under src/ and names no folder that is not there', () => {
    const doc = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Layers'), doc.indexOf('## Decisions'));
    const rows = [...table.matchAll(/^\| `src\/([\w-]+)`/gm)].map((m) => m[1]).sort();
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(rows).toEqual(folders);
  });
});
