import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { Engine } from './engine.js';

/** dialtone's own modules, which only the built-in engine provides, each with why k6 cannot run a scenario that imports it. */
export const OWN_MODULES: Readonly<Record<string, string>> = {
  'k6/x/dialtone-voice': 'k6 has no WebRTC module',
};

/** The modules of dialtone's own that a scenario imports. */
export function ownModulesOf(root: string, scenario: string): string[] {
  const source = readFileSync(join(root, 'scenarios', `${scenario}.ts`), 'utf8');
  return Object.keys(OWN_MODULES).filter((m) => new RegExp(`from\\s+['"]${m.replace(/\//g, '\\/')}['"]`).test(source));
}

/**
 * Refuses, before anything starts, a scenario that imports a module of dialtone's own on the user's k6.
 *
 * @example
 * refuseOnK6(resolveEngine(root, 'k6'), root, 'voice-calls'); // throws UsageError: … k6 has no WebRTC module …
 */
export function refuseOnK6(engine: Engine, root: string, scenario: string, instead = 'run it with --engine builtin'): void {
  if (engine.kind !== 'k6') return;
  const [own] = ownModulesOf(root, scenario);
  if (own) throw new UsageError(`${scenario} imports ${own}, which only the built-in engine provides (${OWN_MODULES[own]}): ${instead}`);
}
