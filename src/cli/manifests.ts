// What the manifest commands (k6-operator, k8s-job) share: reading the profile, and their common flags.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';

/**
 * A profile file's JSON for the manifest commands (k6-operator, k8s-job): they need its hosts and the names of its
 * credential variables, never their values. A missing or broken file is a one-line usage error.
 *
 * @example
 * const raw = profileJson('staging-us.json');
 */
export function profileJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(
      `${path}: ${(e as NodeJS.ErrnoException).code ? 'profile not found or not readable' : `not valid JSON (${(e as Error).message.split('\n')[0]})`}`,
    );
  }
}

/** The flags both manifest commands take (k6-operator, k8s-job); each adds its own. */
export const MANIFEST_FLAGS = {
  target: { type: 'string' },
  parallelism: { type: 'string' },
  workload: { type: 'string' },
  'out-dir': { type: 'string' },
  secret: { type: 'string' },
  namespace: { type: 'string' },
  image: { type: 'string' },
  rate: { type: 'string' },
  duration: { type: 'string' },
} as const;
