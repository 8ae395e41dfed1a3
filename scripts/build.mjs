#!/usr/bin/env node
// Transpiles src/ to plain JavaScript in dist/src/, file by file (no bundling: every module keeps its place, so its
// relative imports and lazy `import()`s hold), with the same esbuild that tsx runs and the project's tsconfig. The bin
// scripts run dist/ when it is fresh (bin/build-state.mjs) and fall back to tsx otherwise: tsx costs every process
// about 0.6 s of CPU to start (its loader thread, esbuild) and a round trip per module, and a run starts many processes
// (the CLI, the engine and each of its worker threads, targets). npm install (postinstall) and npm test build it.
//
//   node scripts/build.mjs        builds dist/ when a source is newer than it, else says it is fresh
//   node scripts/build.mjs --force
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transform } from 'esbuild';
import { isFresh, ROOT, STAMP, sources } from '../bin/build-state.mjs';

const DIST = join(ROOT, 'dist');

if (!process.argv.includes('--force') && isFresh()) {
  console.log('dialtone: dist/ is fresh');
  process.exit(0);
}
// The stamp's time is taken before reading any source: one edited while this runs is newer than the build.
const builtAt = Date.now();
const files = sources();
// Built beside dist/ and swapped in at the end, so a process running from dist/ meanwhile still finds its lazy imports.
const NEXT = `${DIST}.next`;
rmSync(NEXT, { recursive: true, force: true });
// The repository's tsconfig where there is one; the package ships none, and esbuild's defaults for a Node 20 target are
// what it sets for a transform (class fields defined, unused imports dropped).
const tsconfig = existsSync(join(ROOT, 'tsconfig.json')) ? JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) : {};
await Promise.all(
  files.map(async (file) => {
    const rel = relative(ROOT, file);
    const source = readFileSync(file, 'utf8');
    const out = join(NEXT, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    if (!file.endsWith('.ts')) return writeFileSync(out, source);
    const { code } = await transform(source, {
      loader: 'ts',
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      sourcefile: file,
      tsconfigRaw: { compilerOptions: tsconfig.compilerOptions ?? {} },
    });
    writeFileSync(out, code);
  }),
);
writeFileSync(join(NEXT, STAMP), `${JSON.stringify({ builtAt, files: files.length })}\n`);
rmSync(DIST, { recursive: true, force: true });
renameSync(NEXT, DIST);
console.log(`dialtone: built dist/ from ${files.length} sources in ${((Date.now() - builtAt) / 1000).toFixed(1)} s`);
