import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `dialtone ARGS` as a user would, with a hard time limit so a hang fails the test. */
export function dialtone(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${ROOT}bin/dialtone.mjs`, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, K6_NO_USAGE_REPORT: 'true', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `dialtone target` in its own process and resolves once it has written its profile; `extra` adds flags (--tls). */
export async function backgroundTarget(profileOut: string, defects: string[] = [], extra: string[] = []) {
  const args = [`${ROOT}bin/dialtone.mjs`, 'target', '--profile-out', profileOut, ...defects.flatMap((d) => ['--defect', d]), ...extra];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`target did not start: ${out}`)), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('profile:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`target exited ${code}: ${out}`)));
  });
  return {
    output: out,
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
