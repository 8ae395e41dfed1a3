import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFresh, sources, stampOf } from '../bin/build-state.mjs';
import { DIALTONE_VERSION } from '../src/version.js';
import { dialtone, ROOT } from './run-cli.js';

/** A project with three sources (two modules, a scenario's defaults), a test and a scenario; `stamp` writes its stamp. */
function project(): { root: string; stamp: (builtAt: number, files: number) => void } {
  const root = mkdtempSync(join(tmpdir(), 'dialtone-build-'));
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(join(root, 'scenarios'));
  mkdirSync(join(root, 'dist'));
  for (const f of ['src/cli/main.ts', 'src/engine.mjs', 'src/cli/main.test.ts', 'scenarios/chat.defaults.ts', 'scenarios/chat.ts'])
    writeFileSync(join(root, f), '');
  return { root, stamp: (builtAt, files) => writeFileSync(stampOf(root), JSON.stringify({ builtAt, files })) };
}

describe('dist/, the transpiled sources the bin scripts start from', () => {
  it('is built from the modules of src/ and the scenarios’ defaults, never from a test or a scenario', () => {
    const { root } = project();
    expect(sources(root).map((f) => f.slice(root.length + 1))).toEqual(['scenarios/chat.defaults.ts', 'src/cli/main.ts', 'src/engine.mjs']);
  });

  it("holds each scenario's declaration, which src/ loads from dist/ when it runs from there", () => {
    const { root } = project();
    writeFileSync(join(root, 'scenarios', 'chat.scenario.ts'), '');
    expect(sources(root).map((f) => f.slice(root.length + 1))).toContain('scenarios/chat.scenario.ts');
  });

  it('is fresh only when built after every source last changed, from as many sources as there are now', () => {
    const { root, stamp } = project();
    expect(isFresh(root)).toBe(false); // no stamp: never built
    stamp(Date.now() + 60_000, 3);
    expect(isFresh(root)).toBe(true);
    stamp(Date.now() + 60_000, 2);
    expect(isFresh(root)).toBe(false); // a source was added since
    stamp(Date.now() - 60_000, 3);
    expect(isFresh(root)).toBe(false); // a source changed since
    stamp(Date.now() + 60_000, 3);
    const later = new Date(Date.now() + 120_000);
    utimesSync(join(root, 'scenarios', 'chat.defaults.ts'), later, later);
    expect(isFresh(root)).toBe(false);
    writeFileSync(stampOf(root), 'not json');
    expect(isFresh(root)).toBe(false);
  });

  it('is not needed: DIALTONE_FROM_SOURCE=1 runs the TypeScript sources through tsx, the CLI and the engine alike', async () => {
    const env = { DIALTONE_FROM_SOURCE: '1' };
    expect(await dialtone(['--version'], { env })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^dialtone \d+\.\d+\.\d+\n$/) });
    const refused = await dialtone(['target', '--retain', '0'], { env });
    expect([refused.code, refused.stderr]).toEqual([2, "dialtone: target: --retain must be a positive whole number, got '0'\n"]);
    const engine = spawnSync(process.execPath, [join(ROOT, 'bin', 'dialtone-engine.mjs'), 'version'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect([engine.status, engine.stdout]).toEqual([0, expect.stringContaining(DIALTONE_VERSION)]);
  });
});
