// What a profile says a platform may be expected to do (its `slos` and `workloads`), checked in one call that reports
// every mistake at once, so a profile with three of them is fixed in one go rather than in three runs.
import { UsageError } from '../errors.js';
import { issueBlock } from '../profile/issues.js';
import type { Profile } from '../profile/schema.js';
import { sloIssues } from './slos.js';
import { workloadIssues } from './workload.js';

/**
 * Every mistake in what a profile expects of the platform (`slos`, then `workloads`), one line each as
 * `path: what was expected, what was found`; none when k6 would take them all.
 *
 * @example
 * expectationIssues({ slos: undefined, workloads: { 'chat-turns': { weekly: {} } } });
 * // ["workloads.chat-turns.weekly: expected a workload (smoke, nightly, capacity), found 'weekly'"]
 */
export function expectationIssues(profile: Pick<Profile, 'slos' | 'workloads'>): string[] {
  return [...sloIssues(profile), ...workloadIssues(profile)];
}

/**
 * Checks what a profile says of the platform's expectations (`slos`, `workloads`) before anything runs: a UsageError
 * (exit 2) naming every mistake, one line for one and a short block for several, in the style of the profile's own
 * problems (src/profile/issues.ts). Every command that runs a scenario, or writes manifests for one, calls it.
 *
 * @example
 * checkExpectations(loaded.profile, loaded.path ?? 'profile');
 */
export function checkExpectations(profile: Pick<Profile, 'slos' | 'workloads'>, source: string): void {
  const lines = expectationIssues(profile);
  if (lines.length) throw new UsageError(issueBlock(source, lines));
}
