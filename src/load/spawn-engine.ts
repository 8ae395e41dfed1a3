// The one place dialtone starts an engine (the user's k6 or the built-in one): its command line, its time limit, how a
// stop signal reaches it, and how its end becomes an exit code. `load`, each capacity step and the load under the gate
// all run through here, so they stop alike.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../root.js';
import { liveSink } from './dashboard/sink.js';
import type { Engine } from './engine.js';
import { catchInterrupts, type Interruption, onHardStop, onInterrupt } from './interrupt.js';

/** Runs the user's k6 and stops it when dialtone's IPC channel closes. */
export const GUARD = join(ROOT, 'bin', 'engine-guard.mjs');

/** The exit code when the engine could not be started at all (a shell's "command not found"). */
export const EXIT_NOT_STARTED = 127;
/** How long an engine asked to stop may take to write its summary before it is killed: a stop is never unbounded. */
export const STOP_GRACE_S = 30;

export interface EngineStart {
  readonly engine: Engine;
  /** What follows `run`: flags, then the script. */
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Each chunk the engine writes, redacted by the caller before it goes anywhere. */
  readonly output?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** The run's wall-time bound: past it the engine gets `signal` (SIGINT: it writes what ran), then SIGKILL. */
  readonly limit?: { readonly seconds: number; readonly signal: 'SIGINT' | 'SIGKILL'; readonly onLimit?: () => void } | undefined;
}

export interface RunningEngine {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves with the engine's exit code: its own, 128 + the signal's number when one ended it, 127 when it never started. */
  readonly exited: Promise<number>;
  /** Asks it to stop as Ctrl-C does (it writes what ran), killing it after STOP_GRACE_S. */
  stop(): void;
  /** Set when a stop signal to dialtone stopped this engine. */
  interrupted(): Interruption | undefined;
}

/**
 * Starts `engine.command [...engine.args, 'run', ...args]`. The engine runs in a process group of its own, so a Ctrl-C
 * in the terminal reaches it once, from here (twice would stop it before it wrote what ran); it gets an IPC channel,
 * which closes when dialtone dies in a way no handler sees (SIGKILL), and it stops then (the built-in engine itself,
 * the user's k6 through bin/engine-guard.mjs).
 *
 * @example
 * const run = startEngine({ engine, args: ['--summary-export', 's.json', 'script.js'], env });
 * const code = await run.exited;
 */
export function startEngine(start: EngineStart): RunningEngine {
  const releaseSignals = catchInterrupts();
  const line = [start.engine.command, ...start.engine.args, 'run', ...start.args];
  // The user's k6 runs under bin/engine-guard.mjs, which holds the IPC channel for it (k6 takes none).
  const [command, ...args] = start.engine.kind === 'builtin' ? line : [process.execPath, GUARD, ...line];
  // A live dashboard open in this process is fed by the built-in engine over its IPC channel (src/load/dashboard/).
  const live = start.engine.kind === 'builtin' ? liveSink() : undefined;
  const child = spawn(command as string, args, {
    env: { ...start.env, ...live?.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  }) as ChildProcessWithoutNullStreams;
  live?.attach(child);
  let ended = false;
  let stopSent = false;
  let byInterrupt: Interruption | undefined;
  const timers: NodeJS.Timeout[] = [];
  // The engine and what it started (Chromium) share its group: a kill reaches them all.
  const kill = (signal: NodeJS.Signals) => {
    if (ended || child.pid === undefined) return;
    try {
      process.kill(signal === 'SIGKILL' ? -child.pid : child.pid, signal);
    } catch {
      // Gone already.
    }
  };
  const stop = (signal: NodeJS.Signals = 'SIGINT') => {
    if (stopSent) return;
    stopSent = true;
    kill(signal);
    timers.push(setTimeout(() => kill('SIGKILL'), STOP_GRACE_S * 1000));
  };
  // k6 stops on SIGINT and SIGTERM but dies outright of SIGHUP: a hang-up reaches it as SIGTERM.
  const offInterrupt = onInterrupt((i) => {
    byInterrupt = i;
    stop(i.signal === 'SIGHUP' ? 'SIGTERM' : i.signal);
  });
  const offHard = onHardStop(() => kill('SIGKILL'));
  if (start.limit) {
    const { seconds, signal, onLimit } = start.limit;
    timers.push(
      setTimeout(() => {
        onLimit?.();
        if (signal === 'SIGKILL') kill('SIGKILL');
        else stop('SIGINT');
      }, seconds * 1000),
    );
  }
  if (start.output) {
    const out = start.output;
    child.stdout.on('data', (c: Buffer) => out(c, 'stdout'));
    child.stderr.on('data', (c: Buffer) => out(c, 'stderr'));
  }
  const exited = new Promise<number>((resolve) => {
    const end = (code: number) => {
      ended = true;
      for (const t of timers) clearTimeout(t);
      offInterrupt();
      offHard();
      releaseSignals();
      // What the engine started dies with it, even when the engine itself was killed before it could stop them.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // No group left: the usual case.
        }
      }
      resolve(code);
    };
    child.on('error', () => end(EXIT_NOT_STARTED));
    child.on('exit', (code, signal) => end(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1)));
  });
  return { child, exited, stop: () => stop('SIGINT'), interrupted: () => byInterrupt };
}
