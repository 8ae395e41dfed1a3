import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredLicence, familyOfText, licenceField } from './declared.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialtone-declared-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A package folder holding the given files. */
function folder(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

describe('licenceField', () => {
  it('reads the SPDX string, the legacy object and the legacy array (a choice)', () => {
    expect(licenceField({ license: ' MIT ' })).toBe('MIT');
    expect(licenceField({ license: { type: 'ISC', url: 'https://…' } })).toBe('ISC');
    expect(licenceField({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] })).toBe('(MIT OR Apache-2.0)');
    expect(licenceField({ licenses: [{ type: 'BSD-2-Clause' }] })).toBe('BSD-2-Clause');
    expect(licenceField({ licenses: { type: 'GPL-2.0' } })).toBe('GPL-2.0');
    expect(licenceField({ licenses: ['MIT', 'GPL-3.0'] })).toBe('(MIT OR GPL-3.0)');
  });

  it('is undefined when none is named', () => {
    expect(licenceField({})).toBeUndefined();
    expect(licenceField({ license: '' })).toBeUndefined();
    expect(licenceField({ license: 7, licenses: [{ url: 'x' }] })).toBeUndefined();
  });
});

describe('familyOfText', () => {
  it('names the family of a licence title or notice, and none for the Lesser GPL', () => {
    expect(familyOfText('                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007')).toBe('GPL');
    expect(familyOfText('GNU AFFERO GENERAL PUBLIC LICENSE')).toBe('AGPL');
    expect(familyOfText('Server Side Public License\nVERSION 1, OCTOBER 16, 2018')).toBe('SSPL');
    expect(familyOfText('you can redistribute it under the terms of the GNU General Public License as published by')).toBe('GPL');
    expect(familyOfText('GNU LESSER GENERAL PUBLIC LICENSE')).toBeUndefined();
    expect(familyOfText('MIT License\n\nCopyright (c) 2020')).toBeUndefined();
  });
});

describe('declaredLicence', () => {
  it("takes package.json's licence over any file", () => {
    const dir = folder('stated', { LICENSE: 'GNU GENERAL PUBLIC LICENSE' });
    expect(declaredLicence(dir, { license: 'MIT' })).toEqual({ license: 'MIT', source: 'package.json' });
  });

  it("shows the licence file and its first line when package.json names none: 'UNKNOWN (see FILE)'", () => {
    const dir = folder('file-only', { 'LICENSE.md': '\n\nMIT License\n\nCopyright (c) 2020 Someone\n', 'README.md': 'hi' });
    expect(declaredLicence(dir, {})).toEqual({ license: 'UNKNOWN (see LICENSE.md)', source: 'file', head: 'MIT License' });
  });

  it('finds a GPL COPYING, but not when the package also ships a COPYING.LESSER (how LGPL code ships)', () => {
    const gpl = '                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n';
    expect(declaredLicence(folder('gpl', { COPYING: gpl }), {})).toMatchObject({ license: 'UNKNOWN (see COPYING)', fileFamily: 'GPL' });
    const lgpl = declaredLicence(folder('lgpl', { COPYING: gpl, 'COPYING.LESSER': 'GNU LESSER GENERAL PUBLIC LICENSE\n' }), {});
    expect(lgpl.fileFamily).toBeUndefined();
  });

  it("is 'UNKNOWN' with no licence file either", () => {
    expect(declaredLicence(folder('bare', { 'index.js': '' }), {})).toEqual({ license: 'UNKNOWN', source: 'none' });
    expect(declaredLicence(join(tmp, 'no-such-folder'), {})).toEqual({ license: 'UNKNOWN', source: 'none' });
  });
});
