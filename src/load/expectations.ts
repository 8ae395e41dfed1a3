// What a profile says a platform may be expected to do (its `slos` and `workloads`), checked in one call.
import type { Profile } from '../profile/schema.js';
import { checkSlos } from './slos.js';
import { checkWorkloads } from './workload.js';

/**
 * Checks what a profile says of the platform's expectations (`slos`, `workloads`) before anything runs: a one-line
 * UsageError (exit 2) on the first mistake. Every command that runs a scenario, or writes manifests for one, calls it.
 *
 * @example
 * checkExpectations(loaded.profile, loaded.path ?? 'profile');
 */
export function checkExpectations(profile: Pick<Profile, 'slos' | 'workloads'>, source: string): void {
  checkSlos(profile, source);
  checkWorkloads(profile, source);
}
