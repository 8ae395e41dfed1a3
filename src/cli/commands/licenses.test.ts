import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../errors.js';
import { licenses } from './licenses.js';

let tmp = '';

/** Writes `DIR/package.json` for a fake package. */
function plant(dir: string, manifest: Record<string, unknown>) {
  mkdirSync(join(tmp, dir), { recursive: true });
  writeFileSync(join(tmp, dir, 'package.json'), JSON.stringify(manifest));
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'dialtone-licenses-cli-'));
  plant('clean', { name: 'dialtone', version: '0.1.0', license: 'Apache-2.0', dependencies: { b: '1', a: '1' }, devDependencies: { d: '1' } });
  plant('clean/node_modules/a', { name: 'a', version: '1.0.0', license: 'MIT' });
  plant('clean/node_modules/b', { name: 'b', version: '2.0.0', license: '(MIT OR GPL-3.0)', dependencies: { ghost: '1' } });
  plant('clean/node_modules/d', { name: 'd', version: '1.0.0', license: 'ISC' });
  plant('dirty', { name: 'dialtone', version: '0.1.0', license: 'Apache-2.0', dependencies: { a: '1', bad: '1' } });
  plant('dirty/node_modules/a', { name: 'a', version: '1.0.0', license: 'MIT' });
  plant('dirty/node_modules/bad', { name: 'bad', version: '3.0.0', license: 'GPL-3.0' });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Runs the command on a fake tree and keeps what it printed. */
async function run(args: string[], dir: string) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => out.push(String(s)) > 0);
  const code = await licenses(args, join(tmp, dir));
  return { code, out: out.join('\n'), err };
}

describe('dialtone licenses', () => {
  it("prints the root's licence first, then each package sorted; exit 0 when nothing is forbidden", async () => {
    const r = await run([], 'clean');
    expect(r.code).toBe(0);
    expect(r.out.split('\n').slice(0, 4)).toEqual(['dialtone 0.1.0  Apache-2.0', '', '  a  1.0.0  MIT', '  b  2.0.0  (MIT OR GPL-3.0)']);
    expect(r.out).not.toContain(' d ');
    // A missing required dependency is reported, and does not change the exit code.
    expect(r.err).toEqual(['dialtone licenses: missing: ghost (required by b@2.0.0): not installed']);
  });

  it('adds the devDependencies with --dev', async () => {
    expect((await run(['--dev'], 'clean')).out).toMatch(/^ {2}d {2}1\.0\.0 {2}ISC +\(dev\)$/m);
  });

  it('exits 1 with one line per forbidden package', async () => {
    const r = await run([], 'dirty');
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['dialtone licenses: forbidden: bad@3.0.0 is GPL-3.0 (AGPL, GPL and SSPL code may not ship with dialtone)']);
  });

  it('prints JSON and markdown', async () => {
    const j = JSON.parse((await run(['--json'], 'dirty')).out);
    expect(j.packages.map((p: { name: string; verdict: string }) => `${p.name} ${p.verdict}`)).toEqual(['a allowed', 'bad forbidden']);
    expect((await run(['--markdown'], 'clean')).out).toContain('| a | 1.0.0 | MIT |');
  });

  it('is a usage error (exit 2 through main) for an unknown option or two formats', async () => {
    await expect(licenses(['--yaml'], join(tmp, 'clean'))).rejects.toThrow(UsageError);
    await expect(licenses(['--json', '--markdown'], join(tmp, 'clean'))).rejects.toThrow(/choose one/);
  });

  it('passes on this repository', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(await licenses(['--dev'])).toBe(0);
  });
});
