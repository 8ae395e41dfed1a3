// Prepares the k6 run a capacity search repeats: the bundled scenario, the step wrapper and the
// environment. The LoadConfig is built as runLoad builds it (src/load/run.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { bundleScenario } from '../load/bundle.js';
import { browserEnv, ensureChromium, usesBrowser } from '../load/chromium.js';
import { LOAD_ENV, type LoadConfig } from '../load/config.js';
import { writeChatData } from '../load/data.js';
import { ensureK6 } from '../load/k6.js';
import { recordsWindow } from '../load/records-window.js';
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
  const k6 = ensureK6(root);
  const browser = usesBrowser(root, scenario) ? browserEnv(ensureChromium()) : {};
  mkdirSync(workDir, { recursive: true });
  await bundleScenario(root, scenario, join(workDir, 'script.js'));
  const script = join(workDir, 'step.js');
  writeFileSync(script, wrapperSource(join(workDir, 'script.js')));
  const dataFile = join(workDir, 'data.json');
  writeChatData(dataFile, 20261121, 500);
  const config: LoadConfig = {
    scenario,
    // The nightly shape is the constant-arrival-rate one with no abort-on-fail; the wrapper replaces its rate.
    profile: 'nightly',
    target: {
      name: p.name,
      hosts: Object.fromEntries(Object.entries(p.hosts).filter(([, v]) => v)) as Record<string, string>,
      api_version: p.api_version,
      account_id: p.account_id,
      project_id: p.project_id,
      variant_id: p.variant_id,
      chat_script: p.chat_script,
      messaging_host: p.messaging_host,
      records_window: recordsWindow(p, Date.now()),
    },
    secretEnv: Object.fromEntries(Object.entries(p.credentials).map(([name, ref]) => [name, ref?.env ?? ''])),
    dataFile,
  };
  const env = secretEnv(loaded);
  return { k6, script, env: { ...env, ...browser, [LOAD_ENV]: JSON.stringify(config) }, secrets: Object.values(env), workDir };
}
