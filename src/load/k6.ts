import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The k6 release dialtone is tested with (the oldest v2 it accepts), and the k6-operator's default image tag. dialtone
 * never fetches, builds or ships k6: it runs one the user installed, as a separate program.
 */
export const K6_VERSION = 'v2.2.0';
const SUITABLE = /^k6 v2\.(\d+)\.\d+/;

/** A k6 the user installed: where it is and the first line of its `k6 version`. */
export interface FoundK6 {
  readonly path: string;
  readonly version: string;
}

/** The first line of `BIN version`, or undefined when it does not run. */
function versionOf(bin: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const out = execFileSync(bin, ['version'], { encoding: 'utf8', env: { ...env, K6_NO_USAGE_REPORT: 'true' }, timeout: 20_000 });
    return out.trim().split('\n')[0];
  } catch {
    return undefined;
  }
}

/** Where `name` is on the PATH of `env`, if anywhere. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const r = spawnSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8', env });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

/** Whether a `k6 version` line is a v2 at least as new as K6_VERSION. */
export function suitableK6(version: string | undefined): boolean {
  const m = SUITABLE.exec(version ?? '');
  return m !== null && Number(m[1]) >= Number(K6_VERSION.split('.')[1]);
}

/**
 * The k6 programs the user installed, in the order they are tried: $DIALTONE_K6, then k6 on PATH; each with the first
 * line of its `k6 version` (undefined when it does not run).
 */
export function k6Candidates(env: NodeJS.ProcessEnv = process.env): { path: string; version: string | undefined }[] {
  const paths = [env.DIALTONE_K6, onPath('k6', env)].filter((c): c is string => !!c && existsSync(c));
  return [...new Set(paths)].map((path) => ({ path, version: versionOf(path, env) }));
}

/**
 * Finds the user's k6 (a v2.x at least as new as K6_VERSION): $DIALTONE_K6, then k6 on PATH. Undefined when there is
 * none; dialtone then runs its built-in engine (src/load/engine.ts).
 *
 * @example
 * findK6()?.version; // 'k6 v2.2.0 (go1.25.1, linux/amd64)'
 */
export function findK6(env: NodeJS.ProcessEnv = process.env): FoundK6 | undefined {
  const found = k6Candidates(env).find((c) => suitableK6(c.version));
  return found ? { path: found.path, version: found.version as string } : undefined;
}
