import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledPackage, installedPackage, packageEnv, type Run } from './installed-package.js';
import { ROOT } from './run-cli.js';

// Load from dialtone installed as a package (tests/installed-package.ts; the install itself is checked by
// tests/package.test.ts): the gate, a smoke load and a capacity search, run with npx from the project as a platform team
// runs them. A load run judged on its SLOs and delivery: a timing-sensitive file (tests/timing-sensitive.ts).

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
let pkg: InstalledPackage;
let target: ChildProcess | undefined;

beforeAll(() => {
  pkg = installedPackage();
  if (pkg.install.code !== 0) throw new Error(`npm install failed (exit ${pkg.install.code}): ${pkg.install.out}`);
}, 600_000);

afterAll(async () => {
  // The target itself, not a launcher in front of it: a SIGTERM to npx would leave the target running.
  if (target && target.exitCode === null) {
    const exited = new Promise((done) => target?.once('exit', done));
    target.kill('SIGTERM');
    await exited;
  }
});

/** `npx dialtone ARGS` from the project without blocking, so runs of their own can go side by side. */
function npxAsync(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'dialtone', ...args], {
      cwd: pkg.project,
      env: { ...packageEnv, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

/** `dialtone target` from the project, in its own process; resolves once its profile is written. */
function startTarget(profileOut: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // The project's own bin link, run by node directly, so the test holds the target's own process.
    const child = spawn(process.execPath, [join(pkg.project, 'node_modules', '.bin', 'dialtone'), 'target', '--profile-out', profileOut], {
      cwd: pkg.project,
      env: packageEnv,
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

/** Waits until `done()` holds, looking every 100 ms; gives up after `bound` ms so a broken run fails instead of hanging. */
async function until(done: () => boolean, bound = 120_000): Promise<boolean> {
  for (const end = Date.now() + bound; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (done()) return true;
  return done();
}

/**
 * `dialtone ARGS` started as `how` from the project, in a process group of its own as a terminal's job; once its load
 * reaches the engine (the scenario line), Ctrl-C as a terminal sends it: SIGINT to the whole group. Resolves with what
 * the shell would see: the exit code, or 128 + 2 when the process it started ended by the signal.
 */
function ctrlC(how: 'npx' | 'bin', args: string[]): Promise<{ shellSees: number | null; out: string }> {
  const [cmd, first] = how === 'npx' ? ['npx', ['--no-install', 'dialtone']] : [join(pkg.project, 'node_modules', '.bin', 'dialtone'), []];
  return new Promise((resolve) => {
    const child = spawn(cmd, [...first, ...args], { cwd: pkg.project, env: packageEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let sent = false;
    const take = (c: Buffer) => {
      out += c;
      if (!sent && out.includes('scenarios:')) {
        sent = true;
        process.kill(-(child.pid as number), 'SIGINT');
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 300_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ shellSees: code ?? (signal === 'SIGINT' ? 130 : null), out });
    });
  });
}

describe('the exit code of an interrupted run, by how dialtone was started', () => {
  it('is 105 from the bin the workflows of init start; through npx, npm ends its own shell by the signal and the shell sees 130', async () => {
    const run = (how: 'npx' | 'bin') => ctrlC(how, ['load', 'chat-turns', '--workload', 'smoke', '--duration', '60s', '--report-dir', `reports-${how}`]);
    const [bin, npx] = await Promise.all([run('bin'), run('npx')]);
    expect(bin.shellSees, bin.out).toBe(105);
    expect(npx.shellSees, npx.out).toBe(130);
    // Behind npx, dialtone still wrote the run, marked interrupted (docs/reports.md says both).
    for (const how of ['bin', 'npx']) {
      const file = join(pkg.project, `reports-${how}`, 'load', 'chat-turns', 'result.json');
      await until(() => existsSync(file));
      expect((JSON.parse(readFileSync(file, 'utf8')) as { interrupted?: { signal: string } }).interrupted?.signal, how).toBe('SIGINT');
    }
  }, 600_000);
});

describe('dialtone installed as a package, running load from the project', () => {
  it('runs the conformance gate, a smoke load and a capacity search from the project, the first two against a reference target in its own process', async () => {
    const before = filesUnder(pkg.installed);
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
    const results = JSON.parse(readFileSync(join(pkg.project, 'reports', 'conformance', 'results.json'), 'utf8')) as { tool_version: string; gate: string };
    expect(results).toMatchObject({ tool_version: version, gate: 'pass' });

    expect(load.code, load.out).toBe(0);
    const result = JSON.parse(readFileSync(join(pkg.project, 'reports', 'load', 'chat-turns', 'result.json'), 'utf8')) as { tool_version: string };
    expect(result.tool_version).toBe(version);

    expect(capacity.code, capacity.out).toBe(0);
    const found = JSON.parse(readFileSync(join(pkg.project, 'reports', 'capacity', 'chat-turns', 'capacity.json'), 'utf8')) as { tool_version: string };
    expect(found.tool_version).toBe(version);
    // The first search of its kind is recorded and has no baseline yet.
    expect(capacity.out).toContain('capacity verdict: no baseline yet');
    expect(
      readFileSync(join(pkg.project, 'reports', 'capacity', 'chat-turns', 'history.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);

    // Everything it wrote went to the project's reports: the installed package is as npm left it.
    expect(filesUnder(pkg.installed)).toEqual(before);
  }, 900_000);
});

describe("a team's own k6 script, run from the installed package", () => {
  // Running k6, "Write your first test": the quickstart script, kept in the team's project and run with the package's
  // two commands: `dialtone load ./quickstart.js` (reported as a scenario is: the page, result.json, JUnit) and the
  // engine's own `dialtone-engine run`, which takes k6's run flags.
  it('runs ./quickstart.js through npx dialtone load and through npx dialtone-engine run, and writes its page', async () => {
    const server = createServer((_, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      writeFileSync(join(pkg.project, 'quickstart.js'), readFileSync(join(ROOT, 'tests', 'k6-corpus', 'quickstart.js')));
      const load = await npxAsync(['load', './quickstart.js', '--engine', 'builtin'], { BASE_URL: base });
      expect(load.code, load.out).toBe(0);
      expect(load.stdout).toMatch(/^load quickstart\.js on dialtone built-in engine .*: thresholds held/m);
      const out = join(pkg.project, 'reports', 'load', 'quickstart.js');
      for (const f of ['index.html', 'result.json', 'junit.xml']) expect(statSync(join(out, f)).size, f).toBeGreaterThan(0);
      const engine = await new Promise<Run>((resolve) => {
        const child = spawn('npx', ['--no-install', 'dialtone-engine', 'run', 'quickstart.js', '--vus', '2', '--iterations', '4'], {
          cwd: pkg.project,
          env: { ...packageEnv, BASE_URL: base },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let all = '';
        child.stdout.on('data', (c: Buffer) => {
          stdout += c;
          all += c;
        });
        child.stderr.on('data', (c: Buffer) => {
          all += c;
        });
        child.on('close', (code) => resolve({ code, stdout, out: all }));
      });
      expect(engine.code, engine.out).toBe(0);
      expect(engine.stdout).toMatch(/iterations\.+: 4\b/);
    } finally {
      server.close();
    }
  }, 600_000);
});
