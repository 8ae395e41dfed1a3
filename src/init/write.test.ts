import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvironmentError, UsageError } from '../errors.js';
import { checkProjectDir, describeOutcome, ensureIgnored, writeNew } from './write.js';

const project = () => mkdtempSync(join(tmpdir(), 'dialtone-init-write-'));
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');

describe('writing into the project', () => {
  it('creates a file and the folders above it', () => {
    const dir = project();
    expect(writeNew(dir, { path: 'dialtone/profiles/staging.json', text: '{}\n' })).toEqual({ path: 'dialtone/profiles/staging.json', action: 'wrote' });
    expect(read(dir, 'dialtone/profiles/staging.json')).toBe('{}\n');
  });

  it('never replaces a file that is there: it is skipped and left byte for byte', () => {
    const dir = project();
    mkdirSync(join(dir, 'dialtone'));
    writeFileSync(join(dir, 'dialtone', 'mine.json'), "the user's own\r\nbytes");
    const o = writeNew(dir, { path: 'dialtone/mine.json', text: "dialtone's" });
    expect(o).toEqual({ path: 'dialtone/mine.json', action: 'skipped', detail: 'exists' });
    expect(describeOutcome(o)).toBe('skipped dialtone/mine.json (exists)');
    expect(read(dir, 'dialtone/mine.json')).toBe("the user's own\r\nbytes");
  });

  it('says which folder it could not make when a file stands where a folder goes (exit 3)', () => {
    const dir = project();
    writeFileSync(join(dir, 'dialtone'), '');
    expect(() => writeNew(dir, { path: 'dialtone/profiles/staging.json', text: '{}' })).toThrow(EnvironmentError);
    expect(() => writeNew(dir, { path: 'dialtone/profiles/staging.json', text: '{}' })).toThrow(
      'init: cannot write dialtone/ (a file of that name is in the way)',
    );
  });
});

describe("the project's .gitignore", () => {
  it('is created with both lines when there is none', () => {
    const dir = project();
    expect(describeOutcome(ensureIgnored(dir))).toBe('wrote .gitignore');
    expect(read(dir, '.gitignore')).toBe('node_modules/\nreports/\n.dialtone/\n');
  });

  it('gets only the lines it lacks, after every byte it had, on a line of their own', () => {
    const dir = project();
    const before = '# mine\r\nnode_modules/\n/reports';
    writeFileSync(join(dir, '.gitignore'), before);
    const o = ensureIgnored(dir);
    expect(o).toEqual({ path: '.gitignore', action: 'appended', detail: '.dialtone/' });
    expect(describeOutcome(o)).toBe('appended .dialtone/ to .gitignore');
    expect(read(dir, '.gitignore')).toBe(`${before}\n.dialtone/\n`);
  });

  it('is skipped, untouched, when it has them all', () => {
    const dir = project();
    writeFileSync(join(dir, '.gitignore'), '.dialtone\nreports/\nnode_modules\n');
    expect(describeOutcome(ensureIgnored(dir))).toBe('skipped .gitignore (has node_modules/, reports/ and .dialtone/)');
    expect(read(dir, '.gitignore')).toBe('.dialtone\nreports/\nnode_modules\n');
  });
});

describe('the project folder', () => {
  it('must exist and be a folder (exit 2)', () => {
    const dir = project();
    expect(() => checkProjectDir(join(dir, 'nope'))).toThrow(UsageError);
    expect(() => checkProjectDir(join(dir, 'nope'))).toThrow(`init: --dir ${join(dir, 'nope')}: no such directory`);
    writeFileSync(join(dir, 'file'), '');
    expect(() => checkProjectDir(join(dir, 'file'))).toThrow(`init: --dir ${join(dir, 'file')}: not a directory`);
    expect(() => checkProjectDir(dir)).not.toThrow();
  });

  // root may write anywhere, so only another user sees a read-only folder refused.
  it.skipIf(process.getuid?.() === 0)('must be writable (exit 3)', () => {
    const dir = project();
    chmodSync(dir, 0o555);
    expect(() => checkProjectDir(dir)).toThrow(EnvironmentError);
    expect(() => checkProjectDir(dir)).toThrow(`init: cannot write ${dir} (EACCES)`);
  });
});
