// How many worker threads the built-in engine takes. Against a target on this machine (every host on loopback: the
// reference target, or a platform run locally) the target needs a core of its own: on 2 cores a second engine worker
// beside the target costs more CPU per request than it adds, the threads waking each other on the cores the target also
// needs. A remote target gets every core.
import { availableParallelism } from 'node:os';
import type { Profile } from '../profile/schema.js';
import type { Engine } from './engine.js';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Whether every host of the profile is on this machine's loopback. */
export function targetIsLocal(p: Profile): boolean {
  const urls = Object.values(p.hosts).filter((u): u is string => typeof u === 'string' && u !== '');
  return urls.length > 0 && urls.every((u) => LOOPBACK_HOST.test(new URL(u).hostname));
}

/**
 * The environment that sets the built-in engine's worker threads: cores − 1 (at least 1) when the target is local,
 * nothing otherwise (the engine then takes one per core). DIALTONE_ENGINE_WORKERS, when the user set it, wins.
 *
 * @example
 * engineThreadsEnv(builtinEngine(root), referenceProfile, {}, 2); // { DIALTONE_ENGINE_WORKERS: '1' }
 */
export function engineThreadsEnv(engine: Engine, p: Profile, env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): Record<string, string> {
  if (engine.kind !== 'builtin' || env.DIALTONE_ENGINE_WORKERS !== undefined || !targetIsLocal(p)) return {};
  return { DIALTONE_ENGINE_WORKERS: String(Math.max(1, cores - 1)) };
}
