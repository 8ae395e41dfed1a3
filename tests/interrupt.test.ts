// Stopping a run from outside, as CI, a pod eviction or Ctrl-C do: real dialtone processes against a reference target,
// signalled once load is under way. Nothing here judges time: each case waits for what it needs to see (load
// started, the process ended, no process left), and checks what was written, the exit code and that load stopped.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../src/clients/control-client.js';
import { EXIT } from '../src/errors.js';
import { spawnTarget, type TargetProcess } from '../src/fuzz/target-process.js';
import { loadProfile } from '../src/profile/load.js';
import { processesMarked } from './processes.js';
import { ROOT } from './run-cli.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` holds, looking every 100 ms; gives up after `bound` ms so a broken run fails instead of hanging. */
async function until(done: () => boolean | Promise<boolean>, bound = 120_000): Promise<boolean> {
  const end = Date.now() + bound;
  while (Date.now() < end) {
    if (await done()) return true;
    await pause(100);
  }
  return done();
}

interface Target {
  readonly profilePath: string;
  /** Conversations the target holds: grows while load reaches it. */
  conversations(): Promise<number>;
}

/**
 * One target for every run of the file (a target each made the probe of a busy machine time out), stopped after them
 * once it counted no new conversation over a second: by then no run sends it any load. Each run's engine was already
 * seen gone (nothingLeft), and a load left running from an early block would still be sending at the end.
 */
function sharedTarget(): Target {
  let target: TargetProcess | undefined;
  let control: ControlClient | undefined;
  let work = '';
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'dialtone-interrupt-target-'));
    target = await spawnTarget(join(work, 'ref.json'));
    control = new ControlClient(loadProfile(target.profilePath, {}));
  }, 60_000);
  const conversations = async () => (await (control as ControlClient).call<{ conversations: number }>('GET', '/state')).conversations;
  afterAll(async () => {
    try {
      const after = await conversations();
      await pause(1_000);
      expect(await conversations(), 'load reached the target after every run had ended').toBe(after);
    } finally {
      await target?.stop();
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
  return {
    get profilePath() {
      return (target as TargetProcess).profilePath;
    },
    conversations,
  };
}

interface Run {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly mark: string;
  readonly reports: string;
  /** The run's own folder, which `{work}` in its arguments names. */
  readonly work: string;
  readonly target: Target | undefined;
  out(): string;
  err(): string;
  /** Resolves once the process ended and everything it printed was read. */
  readonly exited: Promise<number | null>;
  ended(): boolean;
  finish(): void;
}

/**
 * `dialtone ARGS --target … --report-dir …` in a process group of its own, as a terminal's job, marked in its environment.
 * Without a target, no `--target` (the command starts its own); with `bare`, no `--report-dir` either (`dialtone target`).
 */
function startRun(target: Target | undefined, args: string[], o: { bare?: boolean; env?: NodeJS.ProcessEnv } = {}): Run {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-interrupt-'));
  const mark = `DIALTONE_TEST_MARK_${randomUUID().replaceAll('-', '')}`;
  const reports = join(work, 'reports');
  const flags = [...(target ? ['--target', target.profilePath] : []), ...(o.bare ? [] : ['--report-dir', reports])];
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dialtone.mjs'), ...args.map((a) => a.replace('{work}', work)), ...flags], {
    cwd: ROOT,
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true', ...o.env, [mark]: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  let ended = false;
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  return {
    child,
    pid: child.pid as number,
    mark,
    reports,
    work,
    target,
    out: () => out,
    err: () => err,
    exited,
    ended: () => ended,
    finish: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** Once the run's engine has begun (its header relayed) and load reaches the target (more conversations than before). */
async function loadUnderWay(run: Run): Promise<void> {
  const target = run.target as Target;
  const before = await target.conversations();
  const reached = await until(async () => run.ended() || (run.out().includes('scenarios:') && (await target.conversations()) > before));
  expect(reached && !run.ended(), `load never reached the target (exit ${run.child.exitCode}):\n${run.out()}\n${run.err()}`).toBe(true);
}

/**
 * After the run: no process of it left (the engine was the only thing sending load). A helper process (tsx's esbuild
 * service) ends a moment after its parent; the bound only keeps a process that never ends from hanging the test.
 */
async function nothingLeft(run: Run): Promise<void> {
  await until(() => processesMarked(run.mark).length === 0, 30_000);
  expect(processesMarked(run.mark)).toEqual([]);
}

const target = sharedTarget();
const LOAD = ['load', 'chat-turns', '--workload', 'smoke', '--duration', '120s', '--engine', 'builtin'];
const loadDir = (run: Run) => join(run.reports, 'load', 'chat-turns');
const read = (path: string) => readFileSync(path, 'utf8');

// Each case has its own mark and folders, so the cases of a block run side by side against the file's target; the
// blocks run one after another, so no more than three runs share the machine.
describe('stopping dialtone load from outside with one signal', () => {
  it.concurrent.each([
    ['SIGINT', 'to the process group, as Ctrl-C in a terminal'],
    ['SIGTERM', 'to dialtone alone, as CI cancelling a job'],
    ['SIGHUP', 'to dialtone alone, as a closed terminal'],
  ] as const)(
    '%s %s stops the engine, writes the run marked interrupted and exits 105',
    async (signal, how) => {
      const run = startRun(target, LOAD);
      try {
        await loadUnderWay(run);
        process.kill(how.includes('group') ? -run.pid : run.pid, signal);
        const code = await run.exited;
        expect(code, run.out() + run.err()).toBe(EXIT.interrupted);
        await nothingLeft(run);

        const result = JSON.parse(read(join(loadDir(run), 'result.json'))) as { interrupted?: { signal: string }; passed: boolean; headline: string[] };
        expect(result.interrupted?.signal).toBe(signal);
        expect(result.passed).toBe(false);
        expect(result.headline[0]).toContain(`interrupted by ${signal}`);
        expect(read(join(loadDir(run), 'junit.xml'))).toContain(`interrupted by ${signal}`);
        expect(read(join(loadDir(run), 'index.html'))).toMatch(new RegExp(`interrupted[^]*${signal} at `, 'i'));
        const history = read(join(loadDir(run), 'history.jsonl'))
          .trim()
          .split('\n');
        expect(history).toHaveLength(1);
        expect(JSON.parse(history[0] as string).interrupted.signal).toBe(signal);
        // The engine wrote its summary of the part that ran.
        expect(JSON.parse(read(join(loadDir(run), 'summary.json'))).metrics).toBeTypeOf('object');
        expect(run.out()).toContain('interrupted');
      } finally {
        run.finish();
      }
    },
    240_000,
  );
});

// A checkout whose dist/ is older than its sources runs them through tsx, whose esbuild service is a process of the
// terminal's group: Ctrl-C stops it too, so whatever writes the report must be loaded before the signal can come.
// tsx's cache is off here, as in a checkout whose sources just changed: every module it loads needs the service.
describe('stopping dialtone load run from its sources', () => {
  it('SIGINT to the process group, with tsx transpiling, still writes the run marked interrupted and exits 105', async () => {
    const run = startRun(target, LOAD, { env: { DIALTONE_FROM_SOURCE: '1', TSX_DISABLE_CACHE: '1' } });
    try {
      await loadUnderWay(run);
      process.kill(-run.pid, 'SIGINT');
      expect(await run.exited, run.out() + run.err()).toBe(EXIT.interrupted);
      await nothingLeft(run);
      const result = JSON.parse(read(join(loadDir(run), 'result.json'))) as { interrupted?: { signal: string } };
      expect(result.interrupted?.signal).toBe('SIGINT');
      expect(read(join(loadDir(run), 'index.html'))).toMatch(/interrupted[\s\S]*SIGINT at /i);
    } finally {
      run.finish();
    }
  }, 240_000);
});

describe('stopping dialtone load at once', () => {
  it.concurrent('a second SIGTERM stops everything at once with exit 105', async () => {
    const run = startRun(target, LOAD);
    try {
      await loadUnderWay(run);
      // The second signal goes the moment the first is acknowledged, not at the next look of a poll: a run stops within
      // a few hundred milliseconds, and a busy machine's poll came after it had ended.
      const acknowledged = new Promise<void>((resolve) => {
        const again = () => {
          if (!run.err().includes('SIGTERM: stopping')) return;
          run.child.stderr?.off('data', again);
          process.kill(run.pid, 'SIGTERM');
          resolve();
        };
        run.child.stderr?.on('data', again);
      });
      process.kill(run.pid, 'SIGTERM');
      await acknowledged;
      expect(await run.exited, run.out() + run.err()).toBe(EXIT.interrupted);
      expect(run.err()).toContain('SIGTERM again: stopping at once');
      await nothingLeft(run);
    } finally {
      run.finish();
    }
  }, 240_000);

  it.concurrent('SIGKILL to dialtone: the engine notices its parent is gone, stops its load and writes its summary', async () => {
    const run = startRun(target, LOAD);
    try {
      await loadUnderWay(run);
      process.kill(run.pid, 'SIGKILL');
      await run.exited;
      await nothingLeft(run);
      expect(existsSync(join(loadDir(run), 'summary.json'))).toBe(true);
      expect(existsSync(join(loadDir(run), 'result.json'))).toBe(false);
    } finally {
      run.finish();
    }
  }, 240_000);
});

const HOW = [
  ['SIGINT', 'to the process group, as Ctrl-C in a terminal'],
  ['SIGTERM', 'to dialtone alone, as CI cancelling a job'],
] as const;
const send = (run: Run, signal: string, how: string) => process.kill(how.includes('group') ? -run.pid : run.pid, signal);

describe('stopping a capacity search from outside', () => {
  it.concurrent.each(HOW)(
    '%s %s keeps the finished steps, claims no capacity and exits 105',
    async (signal, how) => {
      const run = startRun(target, [
        'capacity',
        'chat-turns',
        '--engine',
        'builtin',
        '--step',
        '4s',
        '--warmup',
        '1s',
        '--start-rate',
        '2',
        '--max-steps',
        '8',
      ]);
      try {
        expect(await until(() => run.out().includes('step 0 ')), run.out() + run.err()).toBe(true);
        send(run, signal, how);
        expect(await run.exited, run.out() + run.err()).toBe(EXIT.interrupted);
        await nothingLeft(run);
        const dir = join(run.reports, 'capacity', 'chat-turns');
        const result = JSON.parse(read(join(dir, 'capacity.json'))) as {
          stopped: string;
          interrupted?: { signal: string };
          steps: unknown[];
          analysis: { max_sustainable_rate: number | null };
        };
        expect(result.stopped).toBe('interrupted');
        expect(result.interrupted?.signal).toBe(signal);
        expect(result.steps.length).toBeGreaterThanOrEqual(1);
        expect(result.analysis.max_sustainable_rate).toBeNull();
        expect(read(join(dir, 'index.html'))).toContain(`Interrupted by ${signal} at step`);
        expect(read(join(dir, 'index.html'))).toContain('No maximum sustainable rate is claimed');
      } finally {
        run.finish();
      }
    },
    240_000,
  );
});

describe('stopping the gate from outside', () => {
  it.concurrent.each(HOW)(
    '%s %s writes the report of the cases that finished, fails the gate and exits 105',
    async (signal, how) => {
      const run = startRun(target, ['conformance']);
      try {
        expect(await until(() => /\(2\/\d+ files\)/.test(run.err())), run.out() + run.err()).toBe(true);
        send(run, signal, how);
        expect(await run.exited, run.out() + run.err()).toBe(EXIT.interrupted);
        await nothingLeft(run);
        const dir = join(run.reports, 'conformance');
        const results = JSON.parse(read(join(dir, 'results.json'))) as {
          gate: string;
          totals: { pass: number };
          interrupted?: { signal: string; rules_not_run: string[] };
        };
        expect(results.gate).toBe('fail');
        expect(results.totals.pass).toBeGreaterThan(0);
        expect(results.interrupted?.signal).toBe(signal);
        expect(results.interrupted?.rules_not_run.length).toBeGreaterThan(0);
        expect(read(join(dir, 'junit.xml'))).toContain(`interrupted by ${signal}`);
        expect(run.out()).toContain('gate: fail');
      } finally {
        run.finish();
      }
    },
    240_000,
  );
});

describe('stopping the gate under load from outside', () => {
  it.concurrent.each(HOW)(
    '%s %s during the gate under load stops the load, writes the finished cases and the load so far marked interrupted, and exits 105',
    async (signal, how) => {
      const run = startRun(target, ['conformance', '--only', 'chat.*', '--under-load', 'chat-turns@5', '--engine', 'builtin']);
      try {
        // The gate under load has begun once a file of it finished: its load is under way.
        expect(await until(() => run.ended() || /under load: conformance: .*\(1\/\d+ files\)/.test(run.err())), run.out() + run.err()).toBe(true);
        const before = await target.conversations();
        expect(await until(async () => run.ended() || (await target.conversations()) > before), run.out() + run.err()).toBe(true);
        send(run, signal, how);
        expect(await run.exited, run.out() + run.err()).toBe(EXIT.interrupted);
        await nothingLeft(run);
        const dir = join(run.reports, 'conformance');
        const results = JSON.parse(read(join(dir, 'results.json'))) as {
          gate: string;
          totals: { pass: number };
          interrupted?: { signal: string; rules_not_run: string[] };
        };
        expect(results.gate).toBe('fail');
        expect(results.interrupted?.signal).toBe(signal);
        expect(results.totals.pass + (results.interrupted?.rules_not_run.length ?? 0)).toBeGreaterThan(0);
        expect(read(join(dir, 'junit.xml'))).toContain(`interrupted by ${signal}`);
        const underLoad = JSON.parse(read(join(dir, 'under-load.json'))) as {
          interrupted?: { signal: string; during: string };
          under_load_gate: string;
          idle_gate: string;
          achieved_rate: number;
          measured_s: number;
          load_delivered: boolean;
        };
        expect(underLoad.interrupted).toMatchObject({ signal, during: 'the gate under load' });
        expect(underLoad.idle_gate).toBe('pass');
        expect(underLoad.under_load_gate).toBe('interrupted');
        expect(underLoad.achieved_rate).toBeGreaterThan(0);
        expect(underLoad.measured_s).toBeGreaterThan(0);
        expect(underLoad.load_delivered).toBe(false);
        expect(read(join(dir, 'under-load.html'))).toContain(`Interrupted by ${signal} at `);
        expect(run.out()).toContain(`interrupted by ${signal} during the gate under load`);
        expect(run.out()).toContain('gate: fail');
      } finally {
        run.finish();
      }
    },
    240_000,
  );
});

describe('stopping dialtone start from outside', () => {
  it.concurrent.each(HOW)(
    '%s %s during its gate writes the finished cases, starts no load run and exits 105',
    async (signal, how) => {
      const run = startRun(undefined, ['start']);
      try {
        expect(await until(() => run.ended() || /\(2\/\d+ files\)/.test(run.err())), run.out() + run.err()).toBe(true);
        send(run, signal, how);
        expect(await run.exited, run.out() + run.err()).toBe(EXIT.interrupted);
        // The reference target, the defects' targets and the suite's workers all went with it.
        await nothingLeft(run);
        const results = JSON.parse(read(join(run.reports, 'conformance', 'results.json'))) as { gate: string; interrupted?: { signal: string } };
        expect(results.gate).toBe('fail');
        expect(results.interrupted?.signal).toBe(signal);
        expect(existsSync(join(run.reports, 'load'))).toBe(false);
        expect(run.out()).toContain('gate: fail');
      } finally {
        run.finish();
      }
    },
    240_000,
  );
});

describe('stopping dialtone target from outside', () => {
  it.concurrent.each(HOW)(
    '%s %s closes the target and exits 0, its profile written',
    async (signal, how) => {
      const run = startRun(undefined, ['target', '--profile-out', '{work}/ref.json'], { bare: true });
      try {
        expect(await until(() => run.ended() || run.out().includes('stop with Ctrl-C')), run.out() + run.err()).toBe(true);
        const profile = JSON.parse(read(join(run.work, 'ref.json'))) as { hosts: Record<string, string> };
        const host = Object.values(profile.hosts)[0] as string;
        send(run, signal, how);
        // A target's documented end is Ctrl-C: stopping it is no failure.
        expect(await run.exited, run.out() + run.err()).toBe(EXIT.ok);
        await nothingLeft(run);
        await expect(fetch(host)).rejects.toThrow();
      } finally {
        run.finish();
      }
    },
    60_000,
  );
});

// No case for `dialtone merge`: it starts no process and holds no load; it reads the segments' files, judges them and
// writes its report in one go, with no point at which a stop signal could leave anything behind to keep or to stop.
