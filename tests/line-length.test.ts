import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedFiles, LONG_LINE_ALLOWANCE, longLines, MAX_LINE, overAllowance } from './line-length.js';

const root = new URL('..', import.meta.url).pathname;

describe('line length', () => {
  it('finds no line over 160 characters in code, README.md, CONTRIBUTING.md or ARCHITECTURE.md beyond a file allowance', () => {
    const over = overAllowance(root, checkedFiles(root));
    const lines = over.map(
      (l) => `${l[0]?.file}: ${l.length} lines over ${MAX_LINE} (allowed ${LONG_LINE_ALLOWANCE[l[0]?.file ?? ''] ?? 0}), e.g. line ${l[0]?.line}`,
    );
    expect(lines).toEqual([]);
  });

  it('reads the code, the three pages and new files, and leaves docs/ prose and CHANGELOG.md alone', () => {
    const files = checkedFiles(root);
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'src/errors.ts', 'scripts/test.mjs', 'tests/line-length.test.ts']),
    );
    expect(files.filter((f) => f.startsWith('docs/') || f === 'CHANGELOG.md' || f.startsWith('node_modules/'))).toEqual([]);
  });

  it('reports a line of 161 characters with its file and line, and passes one of 160', () => {
    expect(longLines('a.ts', `${'x'.repeat(160)}\n${'y'.repeat(161)}\n`)).toEqual([{ file: 'a.ts', line: 2, length: 161 }]);
    expect(longLines('a.ts', `// ${'→'.repeat(157)}`)).toEqual([]);
  });

  it('fails a file with more long lines than its allowance, and one with none allowed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'line-length-'));
    writeFileSync(join(dir, 'two.ts'), `${'a'.repeat(170)}\n${'b'.repeat(170)}\n`);
    writeFileSync(join(dir, 'one.ts'), `${'c'.repeat(170)}\n`);
    expect(overAllowance(dir, ['two.ts', 'one.ts'], { 'two.ts': 1 }).map((l) => [l[0]?.file, l.length])).toEqual([
      ['two.ts', 2],
      ['one.ts', 1],
    ]);
    expect(overAllowance(dir, ['two.ts', 'one.ts', 'gone.ts'], { 'two.ts': 2, 'one.ts': 1 })).toEqual([]);
  });
});
