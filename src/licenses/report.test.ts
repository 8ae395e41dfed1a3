import { describe, expect, it } from 'vitest';
import { json, type LicenceReport, licenceCounts, markdown, textLines } from './report.js';
import type { InstalledPackage } from './tree.js';
import { judgeTree } from './verdict.js';

const pkg = (name: string, version: string, license: string, dev = false): InstalledPackage => ({
  name,
  version,
  license,
  source: 'package.json',
  path: `node_modules/${name}`,
  dev,
});

function report(dev: boolean): LicenceReport {
  const tree = {
    root: pkg('dialtone', '0.1.0', 'Apache-2.0'),
    packages: [
      pkg('ab', '1.0.0', 'MIT'),
      pkg('long-name', '10.2.3', 'ISC'),
      pkg('odd', '2.0.0', 'A|B'),
      pkg('tool', '1.0.0', 'MIT', true),
      pkg('x', '1.0.0', 'UNLICENSED'),
    ],
    missing: [{ name: 'ghost', requiredBy: 'ab@1.0.0', problem: 'not installed' }],
  };
  return { tree, verdicts: judgeTree(tree).verdicts, dev };
}

describe('licence report', () => {
  it('counts packages by licence, most first', () => {
    expect(licenceCounts(report(false))).toEqual([
      ['MIT', 2],
      ['A|B', 1],
      ['ISC', 1],
      ['UNLICENSED', 1],
    ]);
  });

  it('prints the root first, then one aligned line per package, the count and the unknown licences', () => {
    expect(textLines(report(false))).toEqual([
      'dialtone 0.1.0  Apache-2.0',
      '',
      '  ab         1.0.0   MIT',
      '  long-name  10.2.3  ISC',
      '  odd        2.0.0   A|B',
      '  tool       1.0.0   MIT',
      '  x          1.0.0   UNLICENSED',
      '',
      '5 packages (runtime): MIT 2, A|B 1, ISC 1, UNLICENSED 1',
      "unknown: x@1.0.0: 'UNLICENSED' names no licence",
    ]);
    expect(textLines(report(true))).toContain('  tool       1.0.0   MIT         (dev)');
    expect(textLines(report(true))).toContain('5 packages (4 runtime, 1 development only): MIT 2, A|B 1, ISC 1, UNLICENSED 1');
  });

  it('writes a THIRD_PARTY.md table, escaping pipes', () => {
    const md = markdown(report(false));
    expect(md).toMatch(/^# Third-party licences\n\ndialtone 0\.1\.0 is licensed under Apache-2\.0\. It installs the 5 packages below/);
    expect(md).toContain('| package | version | licence |\n| --- | --- | --- |\n| ab | 1.0.0 | MIT |\n');
    expect(md).toContain('| odd | 2.0.0 | A\\|B |');
    expect(md).toContain('| MIT | 2 |');
    expect(markdown(report(true))).toContain('| tool | 1.0.0 | MIT | development |');
  });

  it('gives scripts every package with its verdict, and what is missing', () => {
    const j = json(report(false));
    expect(j).toMatchObject({ name: 'dialtone', version: '0.1.0', license: 'Apache-2.0', dev: false, licences: { MIT: 2 } });
    expect(j.packages[0]).toEqual({ name: 'ab', version: '1.0.0', license: 'MIT', path: 'node_modules/ab', dev: false, verdict: 'allowed' });
    expect(j.packages.at(-1)).toMatchObject({ name: 'x', verdict: 'unknown', why: "'UNLICENSED' names no licence" });
    expect(j.missing).toEqual([{ name: 'ghost', requiredBy: 'ab@1.0.0', problem: 'not installed' }]);
  });
});
