import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.js';

const BIN = join(ROOT, 'bin', 'dialtone.mjs');

/** `dialtone target` running in a process of its own, so a crash of the target cannot take the fuzzer with it. */
export interface TargetProcess {
  readonly pid: number;
  readonly profilePath: string;
  /** False once the process has exited. */
  alive(): boolean;
  /** How it exited, once it has (code or signal), for the report. */
  exit(): string | undefined;
  /** Everything it printed, last 4 KB (a crash's stack lands here). */
  output(): string;
  /** Resident set size in megabytes, from /proc. */
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * Starts `node bin/dialtone.mjs target --profile-out PROFILE` and resolves once it has written its profile. `nodeFlags`
 * go to that node before the script (the soak's heap settings); `targetArgs` to `dialtone target` (`--latency`, say).
 *
 * @example
 * const t = await spawnTarget('/tmp/fuzz/target.json');
 * console.log(t.rssMb());
 * await t.stop();
 */
export function spawnTarget(
  profilePath: string,
  timeoutMs = 30_000,
  nodeFlags: readonly string[] = [],
  targetArgs: readonly string[] = [],
): Promise<TargetProcess> {
  const args = [...nodeFlags, BIN, 'target', '--profile-out', profilePath, ...targetArgs];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let exited: string | undefined;
  const keep = (c: Buffer) => {
    out = (out + c.toString()).slice(-4096);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const gone = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    });
  });
  const handle: TargetProcess = {
    pid: child.pid ?? -1,
    profilePath,
    alive: () => exited === undefined,
    exit: () => exited,
    output: () => out,
    rssMb: () => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : Number.NaN;
    },
    stop: async () => {
      if (exited === undefined) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(killer);
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the target did not start within ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    child.stdout?.on('data', () => {
      if (out.includes('profile:')) {
        clearTimeout(timer);
        resolve(handle);
      }
    });
    void gone.then(() => {
      clearTimeout(timer);
      reject(new Error(`the target exited (${exited}) before it started: ${out}`));
    });
  });
}
