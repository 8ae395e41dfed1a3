// Runs the built-in engine as its own process on a script text, the way dialtone spawns it, and reads what it wrote.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../root.js';

export const ENGINE = join(ROOT, 'bin', 'dialtone-engine.mjs');

export interface EngineRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The --summary-export file, parsed. */
  readonly summary: { metrics: Record<string, Record<string, number | Record<string, boolean>>>; root_group: Record<string, unknown> };
  readonly dir: string;
}

/**
 * Writes `script` to a fresh folder and runs `dialtone-engine run --summary-export … [args] script.js` there.
 *
 * @example
 * const r = await runScript(`export default function () {}`);
 * r.code; // 0
 */
export async function runScript(
  script: string,
  args: readonly string[] = [],
  options: {
    env?: NodeJS.ProcessEnv;
    /** SIGINT this long after the engine printed its header (its init done): a slow start cannot outrun the signal. */
    signalAfterMs?: number;
    /** SIGINT once the engine printed this (a script's console line, say): a signal at a point of the script's choosing. */
    signalOn?: string;
    dir?: string;
  } = {},
): Promise<EngineRun> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'dialtone-engine-'));
  writeFileSync(join(dir, 'script.js'), script);
  const summaryPath = join(dir, 'summary.json');
  const child = spawn(process.execPath, [ENGINE, 'run', '--no-color', '--summary-export', summaryPath, ...args, join(dir, 'script.js')], {
    cwd: dir,
    env: { ...process.env, ...options.env },
    // dialtone gives the engine an IPC channel, whose closing tells it dialtone is gone.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  }) as ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const after = options.signalAfterMs;
  if (after !== undefined) {
    let armed = false;
    child.stdout.on('data', () => {
      if (armed || !stdout.includes('scenarios:')) return;
      armed = true;
      setTimeout(() => child.kill('SIGINT'), after);
    });
  }
  const mark = options.signalOn;
  if (mark !== undefined) {
    let sent = false;
    const look = () => {
      if (sent || !(stdout + stderr).includes(mark)) return;
      sent = true;
      child.kill('SIGINT');
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
  }
  const code = await new Promise<number>((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 128 : 1))));
  const summary = existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')) : { metrics: {}, root_group: {} };
  return { code, stdout, stderr, summary, dir };
}

/** A number of the summary export. */
export const n = (r: EngineRun, metric: string, key: string) => r.summary.metrics[metric]?.[key] as number | undefined;
