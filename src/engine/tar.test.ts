// The tar an archive is (tar.ts, archive.ts): what it writes, the system's tar reads, and it reads back.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anonymized } from './archive.js';
import { tar, untar } from './tar.js';

const LONG = `file/${'deep/'.repeat(30)}script.js`;

describe('the archive tar', () => {
  it('reads back what it wrote, a path longer than ustar holds included', () => {
    const files = [
      { name: 'metadata.json', data: Buffer.from('{"type":"js"}') },
      { name: 'data', data: Buffer.from('export default () => {};') },
      { name: LONG, data: Buffer.alloc(1000, 7) },
    ];
    const read = untar(tar(files));
    for (const f of files) expect(read.get(f.name)?.equals(f.data), f.name).toBe(true);
  });

  it("is read by the system's tar, folders and the long path included", () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-tar-'));
    writeFileSync(
      join(dir, 'a.tar'),
      tar([
        { name: LONG, data: Buffer.from('x') },
        { name: 'https/cdn:443/m.js', data: Buffer.from('y') },
      ]),
    );
    const listed = execFileSync('tar', ['tf', join(dir, 'a.tar')])
      .toString()
      .trim()
      .split('\n');
    expect(listed).toContain(LONG);
    expect(listed).toContain('https/cdn:443/m.js');
    expect(listed).toContain('file/');
  });

  it('refuses a file that is no tar', () => {
    expect(() => untar(Buffer.alloc(1024, 1))).toThrow('not a tar archive');
  });

  // Archive Command, "What an archive file does not contain": "We anonymize the username found in any path to JS and
  // data file dependencies".
  it("anonymizes a home folder's user name as k6 does", () => {
    expect(anonymized('/home/alice/tests/script.js')).toBe('/home/nobody/tests/script.js');
    expect(anonymized('/Users/bob/x.js')).toBe('/Users/nobody/x.js');
    expect(anonymized('/srv/tests/x.js')).toBe('/srv/tests/x.js');
  });
});
