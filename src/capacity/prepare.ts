// Prepares the k6 run a capacity search repeats: the bundled scenario, the step wrapper and the
// environment, from the same run kit as `dialtone load` (src/load/kit.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { LOAD_ENV } from '../load/config.js';
import { prepareRunKit } from '../load/kit.js';
import type { LoadedProfile } from '../profile/load.js';
import { secretEnv } from '../profile/load.js';
import type { StepContext } from './step.js';
import { wrapperSource } from './wrapper.js';

/**
 * Bundles the scenario once and writes the wrapper every step runs.
 *
 * @example
 * const ctx = await prepareSteps(ROOT, 'chat-turns', loaded, '/tmp/work', false);
 */
export async function prepareSteps(root: string, scenario: string, loaded: LoadedProfile, workDir: string, allowLive: boolean): Promise<StepContext> {
  const p = loaded.profile;
  if (p.environment === 'live' && !allowLive) {
    throw new UsageError(`refusing a capacity search against the live environment of '${p.name}'; pass --allow-live to do it on purpose`);
  }
  // The nightly shape is the constant-arrival-rate one with no abort-on-fail; the wrapper replaces its rate.
  const kit = await prepareRunKit({ root, scenario, profile: 'nightly', loaded, work: workDir });
  const script = join(workDir, 'step.js');
  writeFileSync(script, wrapperSource(kit.script));
  const env = secretEnv(loaded);
  return { k6: kit.k6, script, env: { ...env, ...kit.env, [LOAD_ENV]: JSON.stringify(kit.config) }, secrets: Object.values(env), workDir };
}
