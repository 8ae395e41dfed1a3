import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './run-cli.js';

// dialtone as a platform team uses it: packed, installed into a project of theirs from the local npm cache, and run
// from node_modules with no file of this repository on hand. The project lives in a temporary folder outside the
// repository, so nothing resolves back into it.

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const work = mkdtempSync(join(tmpdir(), 'dialtone-package-'));
const project = join(work, 'acme-platform-tests');
const installed = join(project, 'node_modules', 'dialtone');
// npm's own environment would leak this repository's settings into the child npm; a user's shell has none of it.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
const env = { ...cleanEnv, K6_NO_USAGE_REPORT: 'true', DIALTONE_SKIP_CHROMIUM: '1', CI: 'true' };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  /** stdout and stderr together, for the assertion messages. */
  readonly out: string;
}
const run = (cmd: string, args: string[], cwd = project, timeout = 300_000): Run => {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};
const npx = (...args: string[]) => run('npx', ['--no-install', 'dialtone', ...args]);
/** `npx dialtone ARGS` from the project without blocking, so runs of their own can go side by side. */
function npxAsync(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'dialtone', ...args], { cwd: project, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c;
      out += c;
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, out });
    });
  });
}

/** Every file under dir, relative to it: what the package holds, before and after it ran. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p, base) : [relative(base, p)];
  });
}

let tarball = '';
let install: Run;
let packed: string[] = [];
let target: ChildProcess | undefined;

beforeAll(async () => {
  mkdirSync(project);
  const pack = run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(pack.code, pack.out).toBe(0);
  const meta = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, meta[0]?.filename ?? '');
  packed = (meta[0]?.files ?? []).map((f) => f.path);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'acme-platform-tests', private: true }, null, 2)}\n`);
  // From the npm cache this repository's own install filled: no registry needed.
  install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball]);
}, 600_000);

afterAll(async () => {
  // The target itself, not a launcher in front of it: a SIGTERM to npx would leave the target running.
  if (target && target.exitCode === null) {
    const exited = new Promise((done) => target?.once('exit', done));
    target.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

/** `dialtone target` from the project, in its own process; resolves once its profile is written. */
function startTarget(profileOut: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // The project's own bin link, run by node directly, so the test holds the target's own process.
    const child = spawn(process.execPath, [join(project, 'node_modules', '.bin', 'dialtone'), 'target', '--profile-out', profileOut], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    target = child;
    let out = '';
    const timer = setTimeout(() => reject(new Error(`target did not start: ${out}`)), 60_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('profile:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('exit', (code) => reject(new Error(`target exited ${code}: ${out}`)));
  });
}

describe('dialtone installed as a package into a project of its own', () => {
  it('packs only what runs: the commands, the suite and the scenarios, never tests, benches, tools or reports', () => {
    for (const must of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'THIRD_PARTY.md', 'bin/dialtone.mjs', 'scripts/setup.mjs']) {
      expect(packed, must).toContain(must);
    }
    expect(packed.some((f) => f.startsWith('conformance/chat/'))).toBe(true);
    expect(packed).toContain('scenarios/chat-turns.ts');
    const stray = packed.filter(
      (f) => /^(tests|tools|reports|docs|\.github|\.ci)\//.test(f) || /^src\/.*\.test\.ts$/.test(f) || /^src\/(tools|fuzz|soak)\//.test(f),
    );
    expect(stray).toEqual([]);
    expect(packed.filter((f) => f.startsWith('scripts/')).sort()).toEqual(['scripts/build.mjs', 'scripts/setup.mjs']);
    expect(packed.filter((f) => f.startsWith('dist/'))).toEqual([]); // built at install (postinstall), not shipped
  });

  it('installs from the tarball and builds no Go tool, only dist/: its sources transpiled, fresh, so no start needs tsx', async () => {
    expect(install.code, install.out).toBe(0);
    expect(existsSync(join(installed, 'bin', 'dialtone.mjs'))).toBe(true);
    expect(existsSync(join(installed, '.tools'))).toBe(false);
    expect(install.out).not.toMatch(/building (actionlint|kubeconform)|go build/);
    const { isFresh } = await import(join(installed, 'bin', 'build-state.mjs'));
    expect(isFresh(installed)).toBe(true);
    expect(existsSync(join(installed, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
  });

  it('prints the version package.json holds', () => {
    const r = npx('--version');
    expect(r.code, r.out).toBe(0);
    // stdout alone: npm may warn on stderr about the user's own npm config (an unknown key in ~/.npmrc, say).
    expect(r.stdout.trim()).toBe(`dialtone ${version}`);
  });

  it("lists its licences and its dependencies' from where it is installed, none of them AGPL, GPL or SSPL", () => {
    const r = npx('licenses');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(new RegExp(`dialtone@?\\s*${version.replace(/\./g, '\\.')}.*Apache-2\\.0`));
    expect(r.out).toMatch(/\bzod\b.*MIT/);
  });

  it('sets the project up with init: profiles, .gitignore and workflows that install dialtone as a package', () => {
    const r = npx('init');
    expect(r.code, r.out).toBe(0);
    for (const f of ['.gitignore', '.github/workflows/dialtone-gate.yml', '.github/workflows/dialtone-nightly.yml'])
      expect(existsSync(join(project, f)), f).toBe(true);
    expect(readdirSync(join(project, 'dialtone', 'profiles')).length).toBeGreaterThan(0);
    const workflows = ['dialtone-gate.yml', 'dialtone-nightly.yml'].map((f) => readFileSync(join(project, '.github', 'workflows', f), 'utf8')).join('\n');
    expect(workflows).toMatch(/npm ci/);
    expect(workflows).not.toMatch(/git clone|actions\/setup-go|go build/);
  });

  it('runs the conformance gate, a smoke load and a capacity search from the project, the first two against a reference target in its own process', async () => {
    const before = filesUnder(installed);
    await startTarget('.dialtone/reference.json');

    // The three runs side by side, each of its own: they share the project and its target, not their reports.
    const [gate, load, capacity] = await Promise.all([
      npxAsync(['conformance', '--target', '.dialtone/reference.json', '--only', 'chat.*']),
      // 5 s of the smoke workload, not its 15 s: the installed package's run is what is checked, not its length. From the
      // TypeScript sources through tsx (the CLI, the engine and its worker threads), as when dist/ is stale or missing.
      npxAsync(['load', 'chat-turns', '--workload', 'smoke', '--duration', '5s', '--target', '.dialtone/reference.json'], { DIALTONE_FROM_SOURCE: '1' }),
      // A coarse search against a reference target with a known capacity of its own (16 requests/s, about 2.3
      // conversations/s): 2/s holds (or, should it break, 1/s), 4/s breaks, and a precision of 2 settles it in two steps.
      // It completes (exit 0 is "completed, whatever it found"; what it found is the capacity tests' business, not the
      // package's).
      npxAsync([
        ...['capacity', 'chat-turns', '--capacity', 'chat=16', '--start-rate', '2', '--precision', '2'],
        ...['--step', '4s', '--warmup', '1s', '--max-time', '5m'],
      ]),
    ]);
    expect(gate.code, gate.out).toBe(0);
    const results = JSON.parse(readFileSync(join(project, 'reports', 'conformance', 'results.json'), 'utf8')) as { tool_version: string; gate: string };
    expect(results).toMatchObject({ tool_version: version, gate: 'pass' });

    expect(load.code, load.out).toBe(0);
    const result = JSON.parse(readFileSync(join(project, 'reports', 'load', 'chat-turns', 'result.json'), 'utf8')) as { tool_version: string };
    expect(result.tool_version).toBe(version);

    expect(capacity.code, capacity.out).toBe(0);
    const found = JSON.parse(readFileSync(join(project, 'reports', 'capacity', 'chat-turns', 'capacity.json'), 'utf8')) as { tool_version: string };
    expect(found.tool_version).toBe(version);
    // The first search of its kind is recorded and has no baseline yet.
    expect(capacity.out).toContain('capacity verdict: no baseline yet');
    expect(
      readFileSync(join(project, 'reports', 'capacity', 'chat-turns', 'history.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);

    // Everything it wrote went to the project's reports: the installed package is as npm left it.
    expect(filesUnder(installed)).toEqual(before);
  }, 900_000);

  it("writes the contract, lists the rules and prints the SLOs from the package's own files", () => {
    const contract = npx('contract', '--out', 'contract');
    expect(contract.code, contract.out).toBe(0);
    expect(existsSync(join(project, 'contract', 'openapi.json'))).toBe(true);
    const rules = npx('rules');
    expect(rules.code, rules.out).toBe(0);
    expect(rules.out).toMatch(/^chat\.close\.\S+\s+conformance\/chat\/close\.test\.ts:\d+/m);
    const slos = npx('slos', '--scenario', 'chat-turns');
    expect(slos.code, slos.out).toBe(0);
    expect(slos.out).toMatch(/http_req_duration\{op:chat\.respond\}\s+p\(95\)<500\s+default/);
  });
});
