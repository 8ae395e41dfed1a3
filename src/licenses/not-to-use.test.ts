import { describe, expect, it } from 'vitest';
import { notToUse } from './not-to-use.js';

describe('notToUse', () => {
  it("reads the npm list's form: a [tested here: …] note that says to use something else", () => {
    const tsv = [
      'name\tversion\tdownloads_a_month\tsummary (words in [tested here: ...] at its start are from tests on this kind of machine)',
      'remotion\t4.0.541\t1492912\t[tested here: it has its own licence, not an open-source one: use something else] Make videos programmatically',
      'better-sqlite3\t13.2.0\t17137112\t[tested here: 13.x needs Node 22 and crashes on this machine: use 12.11.1] SQLite',
      // An author's words are not the list's.
      'cheap-watch\t1.0.4\t52731\tIf it works, why use something else?',
      'left-pad\t1.3.0\t100\tString left pad',
      '',
    ].join('\n');
    expect(notToUse(tsv)).toEqual(new Map([['remotion', 'it has its own licence, not an open-source one: use something else']]));
  });

  it("reads the other lists' form: a column that is exactly not-to-use, with the row's last reason", () => {
    const tsv = [
      'name\tnewest_version\tlicence\tsummary\tversions',
      'aspose.words\tnot-to-use\tunread\t\tnone: a paid licence; use something else',
      'Newtonsoft.Json\t13.0.3\tMIT\tJson.NET\t13.0.3',
      'weird\tnot-to-use\r',
    ].join('\n');
    expect(notToUse(tsv)).toEqual(
      new Map([
        ['aspose.words', 'none: a paid licence; use something else'],
        ['weird', 'not-to-use'],
      ]),
    );
  });

  it('never reads the header as a package', () => {
    expect(notToUse('name\tnot-to-use\n').size).toBe(0);
  });
});
