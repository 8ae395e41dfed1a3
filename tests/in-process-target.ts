// The reference target started inside the test's own process, for tests that only need a target to point a gate or a
// client at: it writes the profile and the env file `dialtone target --profile-out` writes, and stops as tests/run-cli.ts's
// `backgroundTarget` does. Tests of the target command itself (what it prints, its flags, its process) keep
// `backgroundTarget`.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type RunningTarget, startTarget, type TargetOptions } from '../src/reference-target/server.js';

/**
 * Starts a reference target in this process and writes its profile to `profileOut`, its credentials beside it in
 * `NAME.env` (the profile's env_file), as `dialtone target --profile-out` does.
 *
 * @example
 * const target = await targetInProcess(join(work, 'ref.json'), { defects: ['chat-close-success-false'] });
 * await dialtone(['conformance', '--target', join(work, 'ref.json')]);
 * await target.stop();
 */
export async function targetInProcess(profileOut: string, options: TargetOptions = {}): Promise<{ running: RunningTarget; stop: () => Promise<void> }> {
  const running = await startTarget(options);
  const envFile = `${profileOut.replace(/\.json$/, '')}.env`;
  const lines = Object.entries(running.env).map(([k, v]) => `${k}=${v}`);
  writeFileSync(envFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  writeFileSync(profileOut, `${JSON.stringify({ ...running.profile, env_file: basename(envFile) }, null, 2)}\n`);
  return { running, stop: () => running.close() };
}
