import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type File, fsModule, SeekMode } from '../fs/fs.js';
import { csvModule } from './csv.js';

const dir = mkdtempSync(join(tmpdir(), 'dialtone-csv-'));
const fs = fsModule(undefined, { scriptPath: join(dir, 'script.js') });
const csv = csvModule();
async function fileOf(name: string, text: string): Promise<File> {
  writeFileSync(join(dir, name), text);
  return fs.open(name);
}

describe('k6/experimental/csv', () => {
  // /csv/options/: asObjects "As a result, the following CSV file: name,age / John,30 / Jane,25 Will be parsed into …
  // { name: 'John', age: '30' }, { name: 'Jane', age: '25' }".
  it("parses the options page's example as objects, the header line skipped", async () => {
    const f = await fileOf('people.csv', 'name,age\nJohn,30\nJane,25\n');
    expect(await csv.parse(f, { asObjects: true })).toEqual([
      { name: 'John', age: '30' },
      { name: 'Jane', age: '25' },
    ]); // A SharedArray: one per thread for a file and its options, read-only, whichever VU asks.
    const again = await csvModule().parse(f, { asObjects: true });
    expect(again).toBe(await csv.parse(f, { asObjects: true }));
    expect(Object.isFrozen(again) && Object.isFrozen(again[0])).toBe(true);
  });

  it('reads quoted fields (the delimiter, "" and a line break inside), CRLF lines and another delimiter', async () => {
    const f = await fileOf('q.csv', 'a;b\r\n"x;1";"say ""hi"""\r\n"two\nlines";z\r\n');
    expect(await csv.parse(f, { delimiter: ';' })).toEqual([
      ['a', 'b'],
      ['x;1', 'say "hi"'],
      ['two\nlines', 'z'],
    ]);
  });

  // "fromLine … The line number from which to start reading", "toLine … The line number at which to stop reading":
  // lines counted from 0, both kept.
  it('keeps the lines from fromLine to toLine, and skipFirstLine drops line 0; the parser then says done', async () => {
    const f = await fileOf('n.csv', 'h\n1\n2\n3\n4\n');
    expect(await csv.parse(f, { fromLine: 2, toLine: 3 })).toEqual([['2'], ['3']]);
    expect(await csv.parse(f, { skipFirstLine: true })).toEqual([['1'], ['2'], ['3'], ['4']]);
    const p = new csv.Parser(f, { skipFirstLine: true, toLine: 2 });
    expect(await p.next()).toEqual({ done: false, value: ['1'] });
    expect(await p.next()).toEqual({ done: false, value: ['2'] });
    expect(await p.next()).toEqual({ done: true, value: undefined });
  });

  it('refuses what is not a File, a bad delimiter and toLine before fromLine, and an unclosed quote', async () => {
    const f = await fileOf('bad.csv', 'a,"b\n');
    await expect(csv.parse('data.csv' as never)).rejects.toThrow('must be a File');
    await expect(csv.parse(f, { delimiter: '"' })).rejects.toThrow('invalid delimiter');
    await expect(csv.parse(f, { fromLine: 3, toLine: 1 })).rejects.toThrow('toLine (1) is before fromLine (3)');
    await expect(csv.parse(f)).rejects.toThrow('never closed');
  });
});

describe('k6/experimental/fs', () => {
  // /fs/file/read/: "It resolves to either the number of bytes read during the operation, or null if there was nothing
  // more to read."; /fs/seekmode/: Start 0, Current 1, End 2.
  it('reads into a buffer to the end, then null; seeks from the start, the current offset and the end', async () => {
    const f = await fileOf('bonjour.txt', 'Bonjour, le monde');
    expect(f.path).toBe(join(dir, 'bonjour.txt'));
    expect(await f.stat()).toEqual({ name: 'bonjour.txt', size: 17 });
    const buf = new Uint8Array(10);
    expect(await f.read(buf)).toBe(10);
    expect(await f.read(buf)).toBe(7);
    expect(Buffer.from(buf.subarray(0, 7)).toString()).toBe('e monde');
    expect(await f.read(buf)).toBeNull();
    expect(await f.seek(6, SeekMode.Start)).toBe(6);
    expect(await f.seek(2, SeekMode.Current)).toBe(8);
    expect(await f.seek(-2, SeekMode.End)).toBe(15);
    await expect(f.seek(-1, SeekMode.Start)).rejects.toThrow('before the start');
  });

  it('rejects a missing file with NotFoundError and a directory with InvalidResourceError', async () => {
    await expect(fs.open('nope.txt')).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(fs.open('.')).rejects.toMatchObject({ name: 'InvalidResourceError' });
  });
});
