import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./report-dir.ts', import.meta.url));

/** One process that proves `dir` usable once `go` exists, as a run does first, then writes its report there; its exit and what it printed. */
function prove(dir: string, go: string): Promise<{ code: number | null; out: string }> {
  const code = `
    const { existsSync } = await import('node:fs');
    const { usableReportDir } = await import(${JSON.stringify(MODULE)});
    (await import('node:fs')).writeFileSync(${JSON.stringify(go)} + '.' + process.pid, '');
    while (!existsSync(${JSON.stringify(go)}));
    try { usableReportDir(${JSON.stringify(dir)}); } catch (e) { console.log(e.message); process.exit(2); }
    (await import('node:fs')).writeFileSync(${JSON.stringify(dir)} + '/' + process.pid + '.json', '{}');`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', (c) => resolve({ code: c, out }));
  });
}

describe('the report directory', () => {
  const base = mkdtempSync(join(tmpdir(), 'dialtone-report-dir-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('is usable by every run started side by side into one new report directory, none refused because another made it first', async () => {
    // Six processes wait on one file, then try to make the same three missing folders at once (a fresh clone's tests did).
    const dir = join(base, 'reports', 'nightly', 'tonight');
    const go = join(base, 'go');
    const runs = Array.from({ length: 6 }, () => prove(dir, go));
    // Each process says it is ready and spins until `go`: they start within microseconds of each other.
    while (readdirSync(base).filter((f) => f.startsWith('go.')).length < runs.length) await new Promise((r) => setTimeout(r, 20));
    writeFileSync(go, '');
    const results = await Promise.all(runs);
    expect(results.map((r) => r.out.trim())).toEqual(results.map(() => ''));
    expect(results.map((r) => r.code)).toEqual(results.map(() => 0));
    expect(readdirSync(dir)).toHaveLength(6);
  }, 60_000);
});
