// The corpus's remote-module scripts (tests/k6-corpus/remote-modules.js, archive.js and the modules under
// tests/k6-corpus/remote/, all dialtone's own), run by the built-in engine in this process against a local target, their
// modules served over HTTPS on 127.0.0.1 by tests/k6-corpus/module-server.ts: fetched; archived; read from the module
// cache with the server stopped; the archive run with neither server nor cache; refused with one line when neither has
// them. Judged by exit code, counts, and what the module server served. Nothing here judges time.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../src/engine/cli.js';
import { EXIT } from '../src/engine/run/exit-codes.js';
import { runArgv } from '../src/engine/run/in-process.js';
import { archiveEngine } from '../src/engine/run.js';
import { untar } from '../src/engine/tar.js';
import { type ModuleServer, startModuleServer } from './k6-corpus/module-server.js';
import { type CorpusTarget, startTarget } from './k6-corpus/target.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');

let modules: ModuleServer;
let target: CorpusTarget;
let dir: string;
let env: NodeJS.ProcessEnv;

/** A corpus script written with the module server's address in place of MODULES, beside the files it reads. */
function scriptFor(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, readFileSync(join(CORPUS, name), 'utf8').replaceAll('MODULES', modules.host));
  for (const sub of ['data', 'lib']) cpSync(join(CORPUS, sub), join(dir, sub), { recursive: true });
  return path;
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly metrics: Record<string, Record<string, number>>;
}

async function run(script: string, runEnv: NodeJS.ProcessEnv): Promise<Run> {
  const summary = join(mkdtempSync(join(dir, 'run-')), 'summary.json');
  const r = await runArgv(['--no-color', '--quiet', '--summary-export', summary, '-e', `BASE_URL=${target.url}`, script], {
    dir,
    env: runEnv,
    guardMs: 60_000,
  });
  let metrics = {};
  try {
    metrics = JSON.parse(readFileSync(summary, 'utf8')).metrics;
  } catch {}
  return { ...r, metrics };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-remote-'));
  [modules, target] = await Promise.all([startModuleServer(), startTarget()]);
  writeFileSync(join(dir, 'ca.pem'), modules.ca);
  // The module server's CA as Go (so k6) trusts one: SSL_CERT_FILE; a cache of this file's own.
  env = { SSL_CERT_FILE: join(dir, 'ca.pem'), DIALTONE_MODULE_CACHE: join(dir, 'cache') };
});
afterAll(async () => {
  await Promise.all([modules.close(), target.close()]);
  rmSync(dir, { recursive: true, force: true });
});

// These run in order: the first fetches, the second finds the modules in the cache with the server stopped.
describe('remote modules', () => {
  let online: Run;

  // Modules, "Remote modules": "These modules are accessed over HTTP(S), from a public source like GitHub, any CDN, or
  // from any publicly accessible web server. The imported modules are downloaded and executed at runtime". Local
  // modules: "k6 adopts a browser-like module resolution": a relative import resolves against its module's URL.
  it('fetches https:// imports, follows a redirect, resolves a relative import against the final URL, and runs', async () => {
    // 6 iterations of 4 checks; each a request through the remote session (k6/http inside a remote module) and a post.
    online = await run(scriptFor('remote-modules.js'), env);
    expect(online.code, online.stderr).toBe(0);
    expect(online.metrics.iterations?.count).toBe(6);
    expect(online.metrics.checks).toMatchObject({ passes: 24, fails: 0 });
    expect(target.count('/anything/remote', 'POST')).toBe(6);
    expect(target.count('/anything/session', 'GET')).toBe(6);
    expect([...modules.served].sort()).toEqual([
      '/k6-session/0.1.0/index.js',
      '/k6-summary/0.1.0/index.js',
      '/k6-utils/1.0.0/index.js',
      '/k6-utils/1.0.0/lib/hex.js',
      '/k6-utils/latest/index.js',
    ]);
    // handleSummary's stdout, made by the remote textSummary.
    expect(online.stdout).toContain('remote text summary');
    expect(online.stdout).toMatch(/ {2}✓ rate==1\.0/);
  });

  // Archive Command: "A k6 archive is simply a tar file with all files needed to execute a k6 test", with
  // "metadata.json The resolved "default" options for this test based on CLI flags, Environment variables and in-script
  // options", the imported JS and the open()'ed files under their full original paths.
  it('archives a script with its local and remote modules and the file it opens, in k6 archive layout', async () => {
    const script = scriptFor('archive.js');
    let stdout = '';
    const keep = (s: string) => {
      stdout += s;
      return true;
    };
    const io = {
      stdout: { write: keep },
      stderr: { write: keep },
      env,
      clock: { now: () => Date.now() },
      signals: { on: () => process, off: () => process },
      cwd: dir,
      exitNow: () => {},
    };
    const before = modules.served.length;
    const code = await archiveEngine(parseRunArgs(['--vus', '3', '-e', `BASE_URL=${target.url}`, script], {}), 'archive.tar', io as never);
    expect(code, stdout).toBe(0);
    // Each module fetched once, though a script with top-level await is bundled twice (CommonJS refused, then ESM).
    expect(modules.served.slice(before).sort()).toEqual(['/k6-utils/1.0.0/index.js', '/k6-utils/1.0.0/lib/hex.js', '/k6-utils/latest/index.js']);
    const entries = untar(readFileSync(join(dir, 'archive.tar')));
    const names = [...entries.keys()];
    expect(names.slice(0, 2)).toEqual(['metadata.json', 'data']);
    expect(names).toEqual(
      expect.arrayContaining([
        `file${script}`,
        `file${join(dir, 'lib', 'await-config.js')}`,
        `file${join(dir, 'data', 'payload.txt')}`,
        `https/${modules.host}/k6-utils/latest/index.js`,
        `https/${modules.host}/k6-utils/1.0.0/lib/hex.js`,
      ]),
    );
    const metadata = JSON.parse(entries.get('metadata.json')?.toString('utf8') ?? '{}');
    expect(metadata).toMatchObject({ type: 'js', filename: `file://${script}`, options: { vus: 3, iterations: 4 }, env: { BASE_URL: target.url } });
  });

  it('runs from the module cache once the server is gone, with the same counts', async () => {
    expect(online?.code).toBe(0);
    await modules.close();
    const cached = await run(scriptFor('remote-modules.js'), env);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.metrics.iterations?.count).toBe(6);
    expect(cached.metrics.checks).toMatchObject({ passes: 24, fails: 0 });
  });

  // Archive Command: "k6 run is compatible with archive files you can execute": with no module server and no cache.
  it('runs the archive with the module server gone and an empty module cache', async () => {
    const before = target.count('/anything/await', 'POST');
    const r = await run(join(dir, 'archive.tar'), { DIALTONE_MODULE_CACHE: join(dir, 'no-cache') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.metrics.iterations?.count).toBe(4);
    expect(r.metrics.checks).toMatchObject({ passes: 4, fails: 0 });
    expect(target.count('/anything/await', 'POST') - before).toBe(4);
  });

  // dialtone's own rule: a module neither the network nor the cache has is refused before the run, in one line that
  // names its URL and says what to do; k6's exit code for a script that cannot start (107).
  it('refuses a module neither network nor cache has in one line naming the URL and what to do, exit 107', async () => {
    const r = await run(scriptFor('remote-modules.js'), { ...env, DIALTONE_MODULE_CACHE: join(dir, 'empty-cache') });
    expect(r.code).toBe(EXIT.scriptException);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`https://${modules.host}/k6-(utils/latest|summary/0\\.1\\.0|session/0\\.1\\.0)/index\\.js could not be fetched`));
    expect(lines[0]).toContain('not in the module cache');
    expect(lines[0]).toContain('vendor the file');
    expect(lines[0]).toContain('--engine k6');
  });
});
