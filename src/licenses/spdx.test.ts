import { describe, expect, it } from 'vitest';
import { alternatives, copyleftFamily, judgeExpression } from './spdx.js';

describe('copyleftFamily', () => {
  it.each([
    ['AGPL-3.0-only', 'AGPL'],
    ['AGPL-1.0', 'AGPL'],
    ['GPL-3.0-or-later', 'GPL'],
    ['GPL-2.0+', 'GPL'],
    ['GPL-2.0-with-classpath-exception', 'GPL'],
    ['GPLv3', 'GPL'],
    ['gpl-2.0', 'GPL'],
    ['SSPL-1.0', 'SSPL'],
  ])('%s is %s', (id, family) => expect(copyleftFamily(id)).toBe(family));

  it.each(['LGPL-3.0', 'LGPL-2.1-or-later', 'MIT', 'Apache-2.0', 'MPL-2.0', 'GPLish', 'LicenseRef-GPL'])('%s is none of them', (id) =>
    expect(copyleftFamily(id)).toBeUndefined(),
  );
});

describe('alternatives', () => {
  it('expands AND over OR, WITH binding tightest, parentheses first', () => {
    expect(alternatives('MIT')).toEqual([['MIT']]);
    expect(alternatives('(MIT OR Apache-2.0)')).toEqual([['MIT'], ['Apache-2.0']]);
    expect(alternatives('MIT AND (Apache-2.0 OR GPL-2.0 WITH Classpath-exception-2.0)')).toEqual([
      ['MIT', 'Apache-2.0'],
      ['MIT', 'GPL-2.0 WITH Classpath-exception-2.0'],
    ]);
    // AND binds tighter than OR.
    expect(alternatives('MIT OR Apache-2.0 AND GPL-3.0')).toEqual([['MIT'], ['Apache-2.0', 'GPL-3.0']]);
    expect(alternatives('((MIT))')).toEqual([['MIT']]);
  });

  it('takes lower-case operators, which packages write though SPDX does not', () => {
    expect(alternatives('MIT or Apache-2.0')).toEqual([['MIT'], ['Apache-2.0']]);
  });

  it.each(['', '(MIT', 'MIT OR', 'MIT Apache-2.0', 'GPL-2.0 WITH', 'AND MIT', '()'])('throws on %j', (expr) => expect(() => alternatives(expr)).toThrow());
});

describe('judgeExpression', () => {
  it.each([
    'MIT',
    '(MIT OR GPL-3.0)',
    'GPL-3.0-only OR Apache-2.0',
    'LGPL-3.0',
    'LGPL-2.1-or-later',
    '(MIT AND Zlib)',
    'MIT OR Apache-2.0 AND GPL-3.0',
    '(AGPL-3.0-only OR MPL-2.0)',
    'BSD-3-Clause',
    'Apache-2.0 WITH LLVM-exception',
  ])('%s is allowed', (expr) => expect(judgeExpression(expr)).toEqual({ verdict: 'allowed' }));

  it.each([
    ['AGPL-3.0-only', 'AGPL'],
    ['GPL-3.0-or-later', 'GPL'],
    ['GPL-3.0', 'GPL'],
    ['SSPL-1.0', 'SSPL'],
    ['GPL-2.0 WITH Classpath-exception-2.0', 'GPL'],
    ['(MIT AND GPL-2.0)', 'GPL'],
    ['GPL-2.0-only OR AGPL-3.0-only', 'GPL'],
    ['(MIT OR Apache-2.0) AND SSPL-1.0', 'SSPL'],
    // Not SPDX, but saying plainly which licence it is.
    ['GNU GPL v3', 'GPL'],
    ['GNU General Public License', 'GPL'],
    ['GNU Affero General Public License v3', 'AGPL'],
  ])('%s is forbidden (%s)', (expr, family) => expect(judgeExpression(expr)).toEqual({ verdict: 'forbidden', family }));

  it.each([
    'UNKNOWN',
    'UNKNOWN (see LICENSE)',
    'UNLICENSED',
    'SEE LICENSE IN LICENSE.md',
    '',
    'Public Domain',
    'GNU Lesser General Public License',
    'GPL v2 or MIT',
  ])('%j is unknown', (expr) => expect(judgeExpression(expr).verdict).toBe('unknown'));
});
