// An archive of a test and its run (archive.ts), in this process: k6's Archive Command, "k6 will run the init stage of
// the code to determine which JS files are being imported and what data files are being open()'ed and bundles all of
// the files up into a tar file"; open(): "The path to the file, absolute or relative, that will be read into memory."
// The run reads both from the archive once the originals are gone.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunArgs } from './cli.js';
import { runArgv } from './run/in-process.js';
import { archiveEngine } from './run.js';

describe('an archive', () => {
  it('holds the files the init context opens, by relative and absolute path, and its run reads them from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-archive-'));
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'relative.txt'), 'by a relative path');
    writeFileSync(join(data, 'absolute.txt'), 'by an absolute path');
    writeFileSync(
      join(dir, 'script.js'),
      [
        "import { check } from 'k6';",
        "const relative = open('./data/relative.txt');",
        `const absolute = open(${JSON.stringify(join(data, 'absolute.txt'))});`,
        'export const options = { iterations: 2 };',
        'export default function () {',
        "  check(null, { 'relative read': () => relative === 'by a relative path', 'absolute read': () => absolute === 'by an absolute path' });",
        '}',
        '',
      ].join('\n'),
    );
    let said = '';
    const keep = (s: string) => {
      said += s;
      return true;
    };
    const io = {
      stdout: { write: keep },
      stderr: { write: keep },
      env: {},
      clock: { now: () => Date.now() },
      signals: { on: () => process, off: () => process },
      cwd: dir,
    };
    const code = await archiveEngine(parseRunArgs([join(dir, 'script.js')], {}), 'test.tar', { ...io, exitNow: () => {} } as never);
    expect(code, said).toBe(0);
    expect(said).toContain('1 script file(s), 2 open()ed, 0 remote module(s)');
    // The originals gone: only the archive has them.
    rmSync(data, { recursive: true });
    rmSync(join(dir, 'script.js'));
    const summary = join(dir, 'summary.json');
    const r = await runArgv(['--quiet', '--no-color', '--summary-export', summary, join(dir, 'test.tar')], { dir, guardMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`script: ${join(dir, 'test.tar')}`);
    const metrics = JSON.parse(readFileSync(summary, 'utf8')).metrics;
    expect(metrics.checks).toMatchObject({ passes: 4, fails: 0 });
    rmSync(dir, { recursive: true, force: true });
  });
});
