import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { notToUse } from './not-to-use.js';
import { walkTree } from './tree.js';
import { forbiddenLine, judgeTree, type PackageVerdict } from './verdict.js';

// This repository's own installed tree, as `dialtone licenses --dev` walks it: nothing AGPL, GPL or SSPL may ship with
// dialtone (k6 is AGPL), nor be needed to develop it.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The workplace's package lists, where this runs on one of its machines: the npm list marks packages not to be used
// (a licence of their own, a paid one). Only the npm list: the others name NuGet, Maven, Go and PyPI packages.
const NPM_LIST = '/work/.library/env/packages/npm.tsv';

const lines = (vs: PackageVerdict[]) => vs.map((v) => (v.verdict === 'forbidden' ? forbiddenLine(v) : `${v.pkg.name}@${v.pkg.version}`));

describe("this repository's installed tree", () => {
  it.each([
    ['runtime', false],
    ['runtime and dev', true],
  ])('%s: every package is installed, and none is AGPL, GPL or SSPL', (_, dev) => {
    const tree = walkTree(ROOT, { dev });
    expect(tree.root).toMatchObject({ name: 'dialtone', license: 'Apache-2.0' });
    expect(tree.packages.length, 'node_modules holds the tree (npm ci)').toBeGreaterThan(50);
    expect(tree.missing, 'required dependencies that are not installed').toEqual([]);
    const { forbidden, unknown } = judgeTree(tree);
    // Unknown licences fail nothing, but a person should read them: they are printed with each run.
    for (const v of unknown) if (v.verdict === 'unknown') console.log(`licence unknown: ${v.pkg.name}@${v.pkg.version}: ${v.why}`);
    expect(lines(forbidden)).toEqual([]);
  });

  it.runIf(existsSync(NPM_LIST))('no installed package is marked not-to-use in the package list', () => {
    const list = notToUse(readFileSync(NPM_LIST, 'utf8'));
    console.log(`${NPM_LIST}: ${list.size} packages marked not-to-use`);
    const { forbidden } = judgeTree(walkTree(ROOT, { dev: true }), list);
    expect(lines(forbidden.filter((v) => v.verdict === 'forbidden' && v.kind === 'not-to-use'))).toEqual([]);
  });
});
