// dialtone's CLI run inside the test's own process: the CLI's `main` with its output captured, for tests whose subject
// is what a command prints and the code it exits with, not the process around it. A process costs a Node start and the
// CLI's imports on every call; here they are paid once per test worker. Tests of process behaviour (signals, pipes,
// the bin/ entry point, processes left behind) keep tests/run-cli.ts's `dialtone`, which this mirrors.
import { format } from 'node:util';
import { main } from '../src/cli/main.js';
import type { CliResult } from './run-cli.js';

/** Calls run one at a time: each borrows the process's output, environment and working directory while it runs. */
let queue: Promise<unknown> = Promise.resolve();

/** Sets each variable (an empty string included, as a child's environment would hold it) and returns an undo. */
function setEnv(vars: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** Routes console and the process's two streams into strings until the returned function is called. */
function capture(): { stdout: () => string; stderr: () => string; restore: () => void } {
  let stdout = '';
  let stderr = '';
  const toOut = (...a: unknown[]) => {
    stdout += `${format(...a)}\n`;
  };
  const toErr = (...a: unknown[]) => {
    stderr += `${format(...a)}\n`;
  };
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  const writes = { out: process.stdout.write, err: process.stderr.write };
  Object.assign(console, { log: toOut, info: toOut, warn: toErr, error: toErr });
  /** A stream's write that keeps the text and calls back as a stream would. */
  const keep =
    (add: (s: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) queueMicrotask(done);
      return true;
    };
  process.stdout.write = keep((s) => {
    stdout += s;
  }) as typeof process.stdout.write;
  process.stderr.write = keep((s) => {
    stderr += s;
  }) as typeof process.stderr.write;
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    restore: () => {
      Object.assign(console, saved);
      process.stdout.write = writes.out;
      process.stderr.write = writes.err;
    },
  };
}

/** One call of `main`, its output captured; a run past its time limit ends with code null, as a killed process would. */
async function runMain(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; cwd?: string }): Promise<CliResult> {
  const undoEnv = setEnv({ K6_NO_USAGE_REPORT: 'true', ...opts.env });
  const cwd = process.cwd();
  if (opts.cwd) process.chdir(opts.cwd);
  const exitCode = process.exitCode;
  const out = capture();
  let timer: NodeJS.Timeout | undefined;
  try {
    const limit = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), opts.timeoutMs ?? 60_000);
    });
    const code = await Promise.race([main(args), limit]);
    return { code, stdout: out.stdout(), stderr: out.stderr() };
  } finally {
    clearTimeout(timer);
    out.restore();
    process.exitCode = exitCode;
    process.chdir(cwd);
    undoEnv();
  }
}

/**
 * Runs `dialtone ARGS` in this process and resolves with its exit code and what it printed, as tests/run-cli.ts's
 * `dialtone` does with a process of its own.
 *
 * @example
 * const r = await dialtoneInProcess(['verdict', '--history', 'none.jsonl']);
 * expect([r.code, r.stderr]).toEqual([2, 'dialtone: verdict: no history file at none.jsonl\n']);
 */
export function dialtoneInProcess(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  const run = queue.then(() => runMain(args, opts));
  queue = run.catch(() => undefined);
  return run;
}
