// Prepares the run a capacity search repeats: the engine, the bundled scenario, the step wrapper and the
// environment, from the same run kit as `dialtone load` (src/load/kit.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { type ClosedModelDefaults, type LearnedWorkload, LOAD_ENV } from '../load/config.js';
import { defaultsOf } from '../load/defaults.js';
import { type Engine, type EngineChoice, engineOfRun } from '../load/engine.js';
import { prepareRunKit } from '../load/kit.js';
import type { LoadedProfile } from '../profile/load.js';
import { secretEnv } from '../profile/load.js';
import type { StepContext } from './step.js';
import { wrapperSource } from './wrapper.js';

/**
 * Resolves the engine (the --engine choice, else DIALTONE_ENGINE, else auto), bundles the scenario once and writes the
 * wrapper every step runs. `learned`: the scenario plays a traffic model's conversations, as `load --workload learned`
 * does (the step's executor replaces the model's rate).
 *
 * @example
 * const ctx = await prepareSteps(ROOT, 'chat-turns', loaded, '/tmp/work', false, 'builtin');
 */
export async function prepareSteps(
  root: string,
  scenario: string,
  loaded: LoadedProfile,
  workDir: string,
  allowLive: boolean,
  engineChoice?: Engine | EngineChoice,
  closed?: { readonly messageRate: number },
  learned?: LearnedWorkload,
): Promise<StepContext> {
  const p = loaded.profile;
  const closedModel = closed ? closedModelOf(scenario, closed.messageRate) : undefined;
  if (p.environment === 'live' && !allowLive) {
    throw new UsageError(`refusing a capacity search against the live environment of '${p.name}'; pass --allow-live to do it on purpose`);
  }
  // The nightly shape is the constant-arrival-rate one with no abort-on-fail; the wrapper replaces its rate.
  const engine = engineOfRun({ root, engine: engineChoice });
  const kit = await prepareRunKit({ root, engine, scenario, profile: 'nightly', loaded, work: workDir, ...(learned ? { overrides: { learned } } : {}) });
  const script = join(workDir, 'step.js');
  writeFileSync(script, wrapperSource(kit.script));
  const env = secretEnv(loaded);
  return {
    engine,
    script,
    env: { ...env, ...kit.env, [LOAD_ENV]: JSON.stringify(kit.config) },
    secrets: Object.values(env),
    workDir,
    slos: kit.config.provenance.slos,
    closed: closedModel,
    learned,
  };
}

/**
 * The scenario's closed model at `messageRate` messages a second per socket (default: the scenario's); a usage error
 * for a scenario that has none.
 *
 * @example
 * closedModelOf('messaging-sockets', 0.5).sockets; // 10
 */
export function closedModelOf(scenario: string, messageRate?: number): ClosedModelDefaults {
  const model = defaultsOf(scenario).closedModel;
  if (!model) throw new UsageError(`capacity: ${scenario} has no closed model (--model closed): only arrival rates are searched for it`);
  return { ...model, messageRate: messageRate ?? model.messageRate };
}
