import { UsageError } from '../errors.js';
import { checkExpectations } from '../load/expectations.js';
import type { LoadedProfile } from '../profile/load.js';
import { loadProfile } from '../profile/load.js';
import { type DefectId, Defects, isDefectId } from '../reference-target/defects.js';
import type { RunningTarget } from '../reference-target/server.js';
import { probe } from './probe.js';

/** Checks defect ids; an unknown one is a usage error that lists the known ones. */
export function defectIds(ids: readonly string[]): DefectId[] {
  for (const id of ids) {
    if (!isDefectId(id)) throw new UsageError(`unknown defect '${id}'; known defects: ${Object.keys(Defects).join(', ')}`);
  }
  return ids as DefectId[];
}

/** The target a command runs against: the profile given, or a reference target started for it. */
export interface TargetSession {
  readonly loaded: LoadedProfile;
  readonly reference: RunningTarget | undefined;
  close(): Promise<void>;
}

/**
 * Without --target, start the reference target on free loopback ports; with it, load and probe the profile. A profile a
 * load plan already read and checked (src/load/plan.ts) is probed as it is.
 */
export async function openTarget(target: string | LoadedProfile | undefined, defects: DefectId[] = []): Promise<TargetSession> {
  if (typeof target === 'object') {
    await probe(target, target.path ?? target.profile.name);
    return { loaded: target, reference: undefined, close: async () => {} };
  }
  const profilePath = target;
  if (profilePath) {
    const loaded = loadProfile(profilePath);
    // SLOs or workloads k6 would not take are a usage error before the target is even probed.
    checkExpectations(loaded.profile, profilePath);
    await probe(loaded, profilePath);
    return { loaded, reference: undefined, close: async () => {} };
  }
  // The target (fastify, werift, every surface) loads only when a command needs it.
  const { startTarget } = await import('../reference-target/server.js');
  const reference = await startTarget({ defects });
  return { loaded: reference.loaded, reference, close: () => reference.close() };
}
