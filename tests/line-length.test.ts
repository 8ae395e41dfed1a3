import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedFiles, longLines, MAX_LINE, overAllowance } from './line-length.js';

const root = new URL('..', import.meta.url).pathname;

describe('line length', () => {
  it('finds no line over 160 characters in code, README.md, CONTRIBUTING.md or ARCHITECTURE.md beyond its allowance', () => {
    const over = overAllowance(root, checkedFiles(root));
    const lines = over.flatMap((l) => l.map((x) => `${x.file}:${x.line}: ${x.length} characters`));
    expect(lines, `lines over ${MAX_LINE} characters: wrap them (tests/line-length.ts says when an allowance fits)`).toEqual([]);
  });

  it('reads the tracked code and the three pages, and leaves docs/ prose and CHANGELOG.md alone', () => {
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

  it('counts a folder allowance over every file under it, so a line may move between its files but not be added', () => {
    const dir = mkdtempSync(join(tmpdir(), 'line-length-'));
    mkdirSync(join(dir, 'cli'));
    writeFileSync(join(dir, 'cli/a.ts'), `${'a'.repeat(170)}\n${'b'.repeat(170)}\n`);
    writeFileSync(join(dir, 'cli/b.ts'), `${'c'.repeat(170)}\n`);
    expect(overAllowance(dir, ['cli/a.ts', 'cli/b.ts'], { 'cli/': 3 })).toEqual([]);
    expect(overAllowance(dir, ['cli/a.ts', 'cli/b.ts'], { 'cli/': 2 }).map((l) => l.map((x) => `${x.file}:${x.line}`))).toEqual([
      ['cli/a.ts:1', 'cli/a.ts:2', 'cli/b.ts:1'],
    ]);
  });
});
