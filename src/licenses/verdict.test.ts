import { describe, expect, it } from 'vitest';
import type { InstalledPackage } from './tree.js';
import { forbiddenLine, judgePackage, judgeTree } from './verdict.js';

const pkg = (name: string, license: string, more: Partial<InstalledPackage> = {}): InstalledPackage => ({
  name,
  version: '1.0.0',
  license,
  source: 'package.json',
  path: `node_modules/${name}`,
  dev: false,
  ...more,
});

describe('judgePackage', () => {
  it('allows a permissive licence, or a choice that offers one', () => {
    expect(judgePackage(pkg('x', 'MIT')).verdict).toBe('allowed');
    expect(judgePackage(pkg('x', '(MIT OR GPL-3.0)')).verdict).toBe('allowed');
    expect(judgePackage(pkg('x', 'LGPL-3.0')).verdict).toBe('allowed');
  });

  it('forbids AGPL, GPL and SSPL, and says so in one line', () => {
    for (const l of ['AGPL-3.0-only', 'GPL-3.0-or-later', 'SSPL-1.0', 'GPL-2.0 WITH Classpath-exception-2.0']) {
      const v = judgePackage(pkg('bad', l));
      expect(v).toMatchObject({ verdict: 'forbidden', kind: 'licence', why: l });
      if (v.verdict === 'forbidden')
        expect(forbiddenLine(v)).toBe(`dialtone licenses: forbidden: bad@1.0.0 is ${l} (AGPL, GPL and SSPL code may not ship with dialtone)`);
    }
  });

  it('forbids a package a not-to-use list names, whatever its licence says', () => {
    const v = judgePackage(pkg('remotion', 'MIT'), new Map([['remotion', 'its own licence, not an open-source one']]));
    expect(v).toMatchObject({ verdict: 'forbidden', kind: 'not-to-use' });
    if (v.verdict === 'forbidden')
      expect(forbiddenLine(v)).toBe('dialtone licenses: forbidden: remotion@1.0.0 is marked not-to-use (its own licence, not an open-source one)');
  });

  it('calls a licence unknown, with why, when nothing says what it is', () => {
    expect(judgePackage(pkg('f', 'UNKNOWN (see LICENSE)', { source: 'file', head: 'Copyright 2010 Someone' }))).toMatchObject({
      verdict: 'unknown',
      why: "package.json names no licence; LICENSE begins 'Copyright 2010 Someone'",
    });
    expect(judgePackage(pkg('n', 'UNKNOWN', { source: 'none' }))).toMatchObject({
      verdict: 'unknown',
      why: 'package.json names no licence and no licence file ships',
    });
    expect(judgePackage(pkg('u', 'UNLICENSED'))).toMatchObject({ verdict: 'unknown', why: "'UNLICENSED' names no licence" });
    expect(judgePackage(pkg('p', 'Public Domain')).verdict).toBe('unknown');
  });
});

describe('judgeTree', () => {
  it('sorts verdicts into forbidden and unknown, never judging the root', () => {
    const root = pkg('dialtone', 'GPL-3.0', { path: '.' });
    const { verdicts, forbidden, unknown } = judgeTree({ root, missing: [], packages: [pkg('a', 'MIT'), pkg('b', 'GPL-3.0'), pkg('c', 'UNLICENSED')] });
    expect(verdicts).toHaveLength(3);
    expect(forbidden.map((v) => v.pkg.name)).toEqual(['b']);
    expect(unknown.map((v) => v.pkg.name)).toEqual(['c']);
  });
});
