// A short k6 run for tests that need what a real run writes (a summary, raw samples) but test what is done with it
// afterwards (merging, judging): the built-in engine runs in the test's own process, the user's k6 as the process it is.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runArgv } from '../src/engine/run/in-process.js';
import type { Engine } from '../src/load/engine.js';

/** A run not ended by then is stopped as a SIGINT would stop it, so a hang fails the test rather than the file. */
const GUARD_MS = 60_000;

/** What a run printed and its exit code. */
export interface SegmentRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `run ARGS` on `engine` with `dir` as its working folder: the built-in engine in this process, k6 as a process.
 *
 * @example
 * const r = await runOnEngine(resolveEngine(ROOT, 'auto'), ['-q', '--summary-export', 'summary.json', 'script.js'], dir);
 * expect(r.code).toBe(0);
 */
export async function runOnEngine(engine: Engine, args: readonly string[], dir: string): Promise<SegmentRun> {
  const env = { K6_NO_USAGE_REPORT: 'true' };
  if (engine.kind === 'builtin') return runArgv(args, { dir, guardMs: GUARD_MS, env });
  try {
    const { stdout, stderr } = await promisify(execFile)(engine.command, [...engine.args, 'run', ...args], {
      cwd: dir,
      env: { ...process.env, ...env },
      timeout: GUARD_MS,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
