// Runs the built-in engine in this process on a script text, as engine-process.ts runs it as a process of its own, and
// reads what it wrote: its streams captured, its signals sent by the caller's schedule. Its worker threads are real.
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunArgs } from '../cli.js';
import type { EngineRun } from '../engine-process.js';
import { EXIT, type RunArgs, runEngine } from '../run.js';
import { type Clock, type EngineIo, SYSTEM_CLOCK, type TextSink } from './io.js';

/** How a run in this process is started and asked to stop. */
export interface InProcessOptions {
  /** The run's system variables (its __ENV base and K6_* settings); none when left out. */
  readonly env?: NodeJS.ProcessEnv;
  /** SIGINT this long after the engine printed its header (its init done). */
  readonly signalAfterMs?: number;
  /** SIGINT once the engine printed this (a script's console line, say): a signal at a point of the script's choosing. */
  readonly signalOn?: string;
  readonly dir?: string;
  /** The clock the run reports its time on (its duration, rates, log lines, delayAbortEval); the system's when left out. */
  readonly clock?: Clock;
  /** Called after every write with everything written so far: a test's point to act on what the run printed. */
  readonly onWrite?: (stdout: string, stderr: string) => void;
}

/** A stream that keeps what is written to it and tells `heard` after each write. */
function capture(heard: () => void): TextSink & { text: string } {
  const sink = {
    text: '',
    write(chunk: string | Uint8Array) {
      sink.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      heard();
    },
  };
  return sink;
}

/** `run`'s arguments parsed as the CLI parses them, and run; a usage error is the CLI's line and k6's 104. */
async function runParsed(argv: readonly string[], io: EngineIo): Promise<number> {
  let args: RunArgs;
  try {
    args = parseRunArgs(argv, io.env);
  } catch (e) {
    io.stderr.write(`dialtone-engine: ${(e as Error).message}\n`);
    return EXIT.invalidConfig;
  }
  return runEngine(args, io);
}

/** What a run in this process printed, and its exit code. */
export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `dialtone-engine run ARGV` in this process, as the engine's process would in `dir`: the files it writes are
 * named from `dir`, as from a process's working folder.
 *
 * @example
 * const r = await runArgv(['--quiet', 'script.js'], { dir: '/tmp/run', guardMs: 60_000 });
 */
export async function runArgv(argv: readonly string[], options: InProcessOptions & { readonly dir: string; readonly guardMs?: number }): Promise<InProcessRun> {
  const signals = new EventEmitter();
  // A real signal arrives between two turns of the event loop, never inside the write that prompted it.
  const sigint = () => setImmediate(() => signals.emit('SIGINT'));
  let armed = false;
  const heard = () => {
    options.onWrite?.(stdout.text, stderr.text);
    if (armed) return;
    if (options.signalAfterMs !== undefined && stdout.text.includes('scenarios:')) {
      armed = true;
      setTimeout(sigint, options.signalAfterMs);
    } else if (options.signalOn !== undefined && (stdout.text + stderr.text).includes(options.signalOn)) {
      armed = true;
      sigint();
    }
  };
  const stdout = capture(heard);
  const stderr = capture(heard);
  // A run not ended by then is stopped as a SIGINT stops it, so a hang fails its test, not the file.
  const guard = options.guardMs === undefined ? undefined : setTimeout(sigint, options.guardMs);
  const io: EngineIo = { stdout, stderr, env: options.env ?? {}, clock: options.clock ?? SYSTEM_CLOCK, signals, cwd: options.dir };
  try {
    return { code: await runParsed(argv, io), stdout: stdout.text, stderr: stderr.text };
  } finally {
    clearTimeout(guard);
  }
}

/**
 * Writes `script` to a fresh folder and runs it as `dialtone-engine run --no-color --summary-export … [args] script.js`
 * would there (runArgv), in this process.
 *
 * @example
 * const r = await runInProcess(`export default function () {}`);
 * r.code; // 0
 */
export async function runInProcess(script: string, args: readonly string[] = [], options: InProcessOptions = {}): Promise<EngineRun> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'dialtone-engine-'));
  writeFileSync(join(dir, 'script.js'), script);
  const summaryPath = join(dir, 'summary.json');
  const r = await runArgv(['--no-color', '--summary-export', summaryPath, ...args, join(dir, 'script.js')], { ...options, dir });
  const summary = existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')) : { metrics: {}, root_group: {} };
  return { ...r, summary, dir };
}
