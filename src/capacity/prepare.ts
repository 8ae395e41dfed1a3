// Prepares the run a capacity search repeats, from its load plan: the bundled scenario, the step wrapper and the
// environment, from the same run kit as `dialtone load` (src/load/run-kit.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { type ClosedModelDefaults, LOAD_ENV } from '../load/config.js';
import { defaultsOf } from '../load/defaults.js';
import type { TargetedPlan } from '../load/plan.js';
import { prepareRunKit } from '../load/run-kit.js';
import { secretEnv } from '../profile/load.js';
import type { StepContext } from './step.js';
import { wrapperSource } from './wrapper.js';

/**
 * Bundles a plan's scenario once and writes the wrapper every step runs; the plan resolved the engine and refused what
 * it refuses. A plan whose overrides carry a traffic model plays its conversations, as `load --workload learned` does
 * (the step's executor replaces the model's rate).
 *
 * @example
 * const ctx = await prepareSteps(planAgainst(plan, session.loaded), '/tmp/work');
 */
export async function prepareSteps(plan: TargetedPlan, workDir: string, closed?: { readonly messageRate: number }): Promise<StepContext> {
  const closedModel = closed ? closedModelOf(plan.scenario, closed.messageRate) : undefined;
  // The nightly shape is the constant-arrival-rate one with no abort-on-fail; the wrapper replaces its rate.
  const kit = await prepareRunKit(plan, workDir);
  const script = join(workDir, 'step.js');
  writeFileSync(script, wrapperSource(kit.script));
  const env = secretEnv(plan.loaded);
  return {
    engine: plan.engine,
    script,
    env: { ...env, ...kit.env, [LOAD_ENV]: JSON.stringify(kit.config) },
    secrets: Object.values(env),
    workDir,
    slos: kit.config.provenance.slos,
    closed: closedModel,
    learned: plan.overrides?.learned,
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
