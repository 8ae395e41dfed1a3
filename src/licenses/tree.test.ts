import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePackage, walkTree } from './tree.js';
import { forbiddenLine, judgeTree } from './verdict.js';

// A project that installed dialtone: npm hoisted most of dialtone's tree into the project's node_modules, and nested
// the copies whose versions clash. Planted once; each test walks it from one root or another.
//
// app/                                  depends on dialtone
// app/node_modules/dialtone             a, b, nolicence, opt-present; optional opt-missing; dev devtool
// app/node_modules/a           1.0.0    depends on c (nested c@2 wins over the hoisted c@1)
// app/node_modules/a/node_modules/c  2.0.0
// app/node_modules/b           1.0.0    depends on c (the hoisted c@1) and a (a cycle back through a, never looped)
// app/node_modules/c           1.0.0    depends on b
// app/node_modules/nolicence   1.0.0    no licence field, a LICENSE file
// app/node_modules/opt-present 1.0.0    (MIT OR GPL-3.0)
// app/node_modules/devtool     1.0.0    its own devDependencies are never walked
let tmp = '';
let app = '';

/** Writes a package.json (and other files) at `app/REL`. */
function plant(rel: string, manifest: Record<string, unknown>, files: Record<string, string> = {}) {
  const dir = join(app, rel);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'dialtone-tree-'));
  app = join(tmp, 'app');
  plant('.', { name: 'app', version: '1.0.0', license: 'UNLICENSED', dependencies: { dialtone: '^0.1.0' } });
  plant('node_modules/dialtone', {
    name: 'dialtone',
    version: '0.1.0',
    license: 'Apache-2.0',
    dependencies: { a: '^1', b: '^1', nolicence: '1', 'opt-present': '1' },
    optionalDependencies: { 'opt-missing': '1', 'opt-present': '1' },
    devDependencies: { devtool: '1' },
  });
  plant('node_modules/a', { name: 'a', version: '1.0.0', license: 'MIT', dependencies: { c: '^2' } });
  plant('node_modules/a/node_modules/c', { name: 'c', version: '2.0.0', license: 'BSD-3-Clause' });
  plant('node_modules/b', { name: 'b', version: '1.0.0', license: 'MIT', dependencies: { c: '^1', a: '^1' } });
  plant('node_modules/c', { name: 'c', version: '1.0.0', license: 'ISC', dependencies: { b: '^1' } });
  plant('node_modules/nolicence', { name: 'nolicence', version: '1.0.0' }, { LICENSE: 'MIT License\n\nCopyright (c) 2019\n' });
  plant('node_modules/opt-present', { name: 'opt-present', version: '1.0.0', license: '(MIT OR GPL-3.0)' });
  plant('node_modules/devtool', { name: 'devtool', version: '1.0.0', license: 'MIT', devDependencies: { 'never-walked': '1' } });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ids = (tree: ReturnType<typeof walkTree>) => tree.packages.map((p) => `${p.name}@${p.version} ${p.license}${p.dev ? ' dev' : ''}`);

describe('resolvePackage', () => {
  it('finds the nearest node_modules/NAME, walking up, as Node does', () => {
    expect(resolvePackage('c', join(app, 'node_modules/a'))).toBe(join(app, 'node_modules/a/node_modules/c'));
    expect(resolvePackage('c', join(app, 'node_modules/b'))).toBe(join(app, 'node_modules/c'));
    expect(resolvePackage('a', join(app, 'node_modules/dialtone'))).toBe(join(app, 'node_modules/a'));
    expect(resolvePackage('opt-missing', join(app, 'node_modules/dialtone'))).toBeUndefined();
  });

  it('never looks in node_modules/node_modules', () => {
    plant('node_modules/node_modules/stray', { name: 'stray', version: '1.0.0' });
    expect(resolvePackage('stray', join(app, 'node_modules/dialtone'))).toBeUndefined();
  });
});

describe('walkTree', () => {
  it('walks dialtone installed inside a project: hoisted and nested copies, each once per name@version', () => {
    const tree = walkTree(join(app, 'node_modules/dialtone'));
    expect(tree.root).toMatchObject({ name: 'dialtone', version: '0.1.0', license: 'Apache-2.0', path: '.' });
    expect(ids(tree)).toEqual([
      'a@1.0.0 MIT',
      'b@1.0.0 MIT',
      'c@1.0.0 ISC',
      'c@2.0.0 BSD-3-Clause',
      'nolicence@1.0.0 UNKNOWN (see LICENSE)',
      'opt-present@1.0.0 (MIT OR GPL-3.0)',
    ]);
    expect(tree.packages.find((p) => p.name === 'a')?.path).toBe('../a');
    expect(tree.packages.find((p) => p.name === 'nolicence')).toMatchObject({ source: 'file', head: 'MIT License' });
    // opt-missing is optional and absent: skipped without a word.
    expect(tree.missing).toEqual([]);
  });

  it("walks the root's devDependencies with --dev only, and never a dependency's devDependencies", () => {
    const tree = walkTree(join(app, 'node_modules/dialtone'), { dev: true });
    expect(ids(tree)).toContain('devtool@1.0.0 MIT dev');
    expect(ids(tree).filter((l) => l.endsWith(' dev'))).toEqual(['devtool@1.0.0 MIT dev']);
    expect(tree.missing).toEqual([]);
  });

  it('walks the project itself as the root (the repository layout: dependencies below the root)', () => {
    expect(ids(walkTree(app))).toEqual(expect.arrayContaining(['dialtone@0.1.0 Apache-2.0', 'a@1.0.0 MIT', 'c@2.0.0 BSD-3-Clause']));
  });

  it('reports a missing required dependency, and an unreadable package.json, with who needs it', () => {
    plant('node_modules/needy', { name: 'needy', version: '2.0.0', license: 'MIT', dependencies: { ghost: '1', broken: '1' } });
    mkdirSync(join(app, 'node_modules/broken'), { recursive: true });
    writeFileSync(join(app, 'node_modules/broken/package.json'), '{ not json');
    plant('node_modules/needs-needy', { name: 'needs-needy', version: '1.0.0', license: 'MIT', dependencies: { needy: '2' } });
    const tree = walkTree(join(app, 'node_modules/needs-needy'));
    expect(tree.missing).toEqual([
      { name: 'broken', requiredBy: 'needy@2.0.0', problem: expect.stringMatching(/^its package\.json is not JSON/) },
      { name: 'ghost', requiredBy: 'needy@2.0.0', problem: 'not installed' },
    ]);
  });

  it('follows a symlinked package (npm link) from where it really lies', () => {
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(join(elsewhere, 'linked/node_modules/inner'), { recursive: true });
    writeFileSync(join(elsewhere, 'linked/package.json'), JSON.stringify({ name: 'linked', version: '1.0.0', license: 'MIT', dependencies: { inner: '1' } }));
    writeFileSync(join(elsewhere, 'linked/node_modules/inner/package.json'), JSON.stringify({ name: 'inner', version: '1.0.0', license: 'ISC' }));
    plant('node_modules/linker', { name: 'linker', version: '1.0.0', license: 'MIT', dependencies: { linked: '1' } });
    symlinkSync(join(elsewhere, 'linked'), join(app, 'node_modules/linked'), 'dir');
    expect(ids(walkTree(join(app, 'node_modules/linker')))).toEqual(['inner@1.0.0 ISC', 'linked@1.0.0 MIT']);
  });

  it('fails the check on a GPL package planted in the tree, and on one whose only licence is a GPL COPYING', () => {
    plant('node_modules/dialtone-gpl', {
      name: 'dialtone-gpl',
      version: '0.1.0',
      license: 'Apache-2.0',
      dependencies: { a: '^1', 'gpl-thing': '1', 'copying-only': '1' },
    });
    plant('node_modules/gpl-thing', { name: 'gpl-thing', version: '1.0.0', license: 'GPL-3.0' });
    plant(
      'node_modules/copying-only',
      { name: 'copying-only', version: '3.1.0' },
      { COPYING: '\t\t    GNU GENERAL PUBLIC LICENSE\n\t\t       Version 2, June 1991\n' },
    );
    const { forbidden, unknown } = judgeTree(walkTree(join(app, 'node_modules/dialtone-gpl')));
    expect(forbidden.map((v) => (v.verdict === 'forbidden' ? forbiddenLine(v) : ''))).toEqual([
      'dialtone licenses: forbidden: copying-only@3.1.0 is GPL by its COPYING, as package.json names no licence (AGPL, GPL and SSPL code may not ship with ' +
        'dialtone)',
      'dialtone licenses: forbidden: gpl-thing@1.0.0 is GPL-3.0 (AGPL, GPL and SSPL code may not ship with dialtone)',
    ]);
    expect(unknown).toEqual([]);
  });

  it('throws when the root has no package.json', () => {
    expect(() => walkTree(tmp)).toThrow(/no readable package\.json/);
  });
});
