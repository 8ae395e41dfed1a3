import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { init } from '../src/cli/commands/init.js';
import { EnvironmentError, UsageError } from '../src/errors.js';
import { scenarioNames } from '../src/load/scenarios.js';
import { loadProfile } from '../src/profile/load.js';
import { findGoTool } from '../src/tools/go-tools.js';
import { ROOT } from './run-cli.js';

// `dialtone init` as a platform team runs it in its own project (here a temporary folder): what it writes, that
// actionlint takes the workflows, and that it never overwrites a file of theirs.

const GATE = '.github/workflows/dialtone-gate.yml';
const NIGHTLY = '.github/workflows/dialtone-nightly.yml';

afterEach(() => {
  vi.restoreAllMocks();
});

const project = () => mkdtempSync(join(tmpdir(), 'dialtone-init-'));

/** Runs `dialtone init ARGS` in this process and keeps the lines it printed. */
async function run(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const code = await init(args);
  vi.restoreAllMocks();
  return { code, lines };
}

/** Every file under dir, relative to it, with its bytes. */
function snapshot(dir: string, base = dir): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? Object.entries(snapshot(p, base)) : [[relative(base, p), readFileSync(p, 'latin1')]];
    }),
  );
}

function actionlint(...files: string[]) {
  const bin = findGoTool(ROOT, 'actionlint');
  if (!bin) throw new Error('actionlint is not built: run npm install');
  return spawnSync(bin, ['-no-color', ...files], { encoding: 'utf8' });
}

describe('dialtone init', () => {
  it.each([['builtin'], ['k6']])('writes workflows that pass actionlint (nightly on %s)', async (engine) => {
    const dir = project();
    const { code, lines } = await run(['--dir', dir, '--engine', engine]);
    expect(code).toBe(0);
    expect(lines.slice(0, 5)).toEqual([
      'dialtone init: wrote dialtone/profiles/staging.json',
      'dialtone init: wrote dialtone/profiles/pre-release.json',
      `dialtone init: wrote ${GATE}`,
      `dialtone init: wrote ${NIGHTLY}`,
      'dialtone init: wrote .gitignore',
    ]);
    expect(lines.slice(5)).toEqual([
      expect.stringMatching(/^dialtone init: next: fill in the hosts/),
      expect.stringMatching(/^dialtone init: then: npx dialtone conformance/),
    ]);
    const r = actionlint(join(dir, GATE), join(dir, NIGHTLY));
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    // On k6, voice-calls (dialtone's own WebRTC module, which k6 lacks) still runs on the built-in engine.
    const nightlyEngine = parse(readFileSync(join(dir, NIGHTLY), 'utf8')).jobs.load.env.DIALTONE_ENGINE;
    if (engine === 'k6') expect(nightlyEngine).toBe(`\${{ contains(fromJSON('["voice-calls"]'), matrix.scenario) && 'builtin' || 'k6' }}`);
    else expect(nightlyEngine).toBe(engine);
  });

  it('writes workflows that fail actionlint once broken, so the check can fail', async () => {
    const dir = project();
    await run(['--dir', dir]);
    const bad = join(dir, 'bad.yml');
    const nightly = readFileSync(join(dir, NIGHTLY), 'utf8');
    expect(nightly).toContain('matrix.scenario }}"');
    writeFileSync(bad, nightly.replace('matrix.scenario }}"', 'matrix.scenarios }}"'));
    const r = actionlint(bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/property "scenarios" is not defined/);
  });

  it("writes profiles the loader takes, whose variables are the workflows' secrets, and a nightly over every scenario", async () => {
    const dir = project();
    await run(['--dir', dir, '--environments', 'qa,pre-release,prod']);
    const envOfWorkflow = (file: string, step: RegExp) =>
      (Object.values(parse(readFileSync(join(dir, file), 'utf8')).jobs)[0] as { steps: { run?: string; env?: Record<string, string> }[] }).steps.find((s) =>
        step.test(s.run ?? ''),
      )?.env ?? {};
    for (const [name, file, step] of [
      ['pre-release', GATE, /dialtone conformance/],
      ['qa', NIGHTLY, /dialtone load/],
    ] as const) {
      const path = join(dir, 'dialtone', 'profiles', `${name}.json`);
      const variables = Object.values(JSON.parse(readFileSync(path, 'utf8')).credentials as Record<string, { env: string }>).map((r) => r.env);
      expect(Object.keys(envOfWorkflow(file, step))).toEqual(variables);
      expect(() => loadProfile(path, Object.fromEntries(variables.map((v) => [v, 'x'])))).not.toThrow();
    }
    expect(JSON.parse(readFileSync(join(dir, 'dialtone', 'profiles', 'prod.json'), 'utf8')).environment).toBe('live');
    expect(parse(readFileSync(join(dir, NIGHTLY), 'utf8')).jobs.load.strategy.matrix.scenario).toEqual(scenarioNames(ROOT));
  });

  it('never overwrites: a second run writes nothing, names every file it skipped and leaves edited files byte for byte', async () => {
    const dir = project();
    await run(['--dir', dir]);
    // The team makes the files its own.
    writeFileSync(join(dir, 'dialtone', 'profiles', 'staging.json'), '{ "name": "ours" }');
    writeFileSync(join(dir, GATE), '# our gate\r\n');
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n.dialtone/\nreports/');
    const before = snapshot(dir);
    const { code, lines } = await run(['--dir', dir, '--engine', 'k6']);
    expect(code).toBe(0);
    expect(lines.slice(0, 5)).toEqual([
      'dialtone init: skipped dialtone/profiles/staging.json (exists)',
      'dialtone init: skipped dialtone/profiles/pre-release.json (exists)',
      `dialtone init: skipped ${GATE} (exists)`,
      `dialtone init: skipped ${NIGHTLY} (exists)`,
      'dialtone init: skipped .gitignore (has node_modules/, reports/ and .dialtone/)',
    ]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("appends to the project's .gitignore only the lines it lacks, keeping every byte it had", async () => {
    const dir = project();
    const mine = '# build\nnode_modules/\r\n/reports';
    writeFileSync(join(dir, '.gitignore'), mine);
    const { lines } = await run(['--dir', dir]);
    expect(lines).toContain('dialtone init: appended .dialtone/ to .gitignore');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(`${mine}\n.dialtone/\n`);
  });

  it('keeps a tarball installed from outside the project in vendor/ and says how to point the dependency at it', async () => {
    const outside = project();
    writeFileSync(join(outside, 'dialtone-0.1.0.tgz'), 'the tarball');
    const dir = join(outside, 'acme');
    mkdirSync(dir);
    const dependOn = (spec: string) => writeFileSync(join(dir, 'package.json'), JSON.stringify({ devDependencies: { dialtone: spec } }));
    dependOn('file:../dialtone-0.1.0.tgz');
    const { code, lines } = await run(['--dir', dir]);
    expect(code).toBe(0);
    expect(lines).toContain('dialtone init: wrote vendor/dialtone-0.1.0.tgz (a copy of ../dialtone-0.1.0.tgz)');
    expect(lines).toContain(
      'dialtone init: next: package.json installs dialtone from file:../dialtone-0.1.0.tgz, outside this repository, which a CI checkout does not ' +
        'have (npm ci fails there): npm install --save-dev ./vendor/dialtone-0.1.0.tgz, then commit vendor/dialtone-0.1.0.tgz with package.json ' +
        'and package-lock.json',
    );
    expect(readFileSync(join(dir, 'vendor', 'dialtone-0.1.0.tgz'), 'utf8')).toBe('the tarball');
    // Once the dependency points there (as npm records it), nothing more is said; a clone outside gets the way to a tarball.
    dependOn('file:vendor/dialtone-0.1.0.tgz');
    expect((await run(['--dir', dir])).lines.filter((l) => /vendor|outside/.test(l))).toEqual([]);
    dependOn('git+file:///opt/dialtone');
    expect((await run(['--dir', dir])).lines).toContainEqual(expect.stringMatching(/from git\+file:\/\/\/opt\/dialtone, outside .*: make a tarball/));
  });

  it('writes into the current directory by default', async () => {
    const dir = project();
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    expect(await init([])).toBe(0);
    expect(Object.keys(snapshot(dir)).sort()).toEqual([
      '.github/workflows/dialtone-gate.yml',
      '.github/workflows/dialtone-nightly.yml',
      '.gitignore',
      'dialtone/profiles/pre-release.json',
      'dialtone/profiles/staging.json',
    ]);
  });

  it.each([
    [['--engine', 'auto'], "init: --engine: expected builtin or k6, got 'auto'"],
    [['--environments', 'Staging'], "init: --environments: 'Staging' must match"],
    [['--environments', 'qa,qa'], "init: --environments: 'qa' is listed twice"],
    [['--dir', '/no/such/dialtone/project'], 'init: --dir /no/such/dialtone/project: no such directory'],
    [['--force'], "init: Unknown option '--force'"],
    [['here'], 'init: Unexpected argument'],
  ])('refuses %j with a one-line usage error (exit 2) and writes nothing', async (args, message) => {
    const dir = project();
    const promise = init(args[0] === '--dir' ? args : ['--dir', dir, ...args]);
    await expect(promise).rejects.toThrow(UsageError);
    await expect(promise).rejects.toThrow(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops with an environment error (exit 3) naming what it could not write, before it writes any file', async () => {
    const dir = project();
    mkdirSync(join(dir, '.github'));
    writeFileSync(join(dir, '.github', 'workflows'), 'a file where the folder goes');
    const promise = init(['--dir', dir]);
    await expect(promise).rejects.toThrow(EnvironmentError);
    await expect(promise).rejects.toThrow('init: cannot write .github/workflows/ (a file of that name is in the way)');
    expect(Object.keys(snapshot(dir))).toEqual(['.github/workflows']);
  });
});
