import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedProfile } from '../profile/load.js';
import { trustOf } from '../profile/tls.js';
import { voiceClientPage } from '../voice-client/page.js';
import { bundleScenario } from './bundle.js';
import { browserEnv, ensureChromium } from './chromium.js';
import type { LoadConfig, WorkloadName } from './config.js';
import { writeChatData } from './data.js';
import { type DialogueSet, dialoguesField } from './dialogues.js';
import type { Engine } from './engine.js';
import { engineThreadsEnv } from './engine-threads.js';
import type { ShapedWorkload, TargetedPlan } from './plan.js';
import { recordsWindow } from './records-window.js';
import { drivesChromium, refuseOnK6 } from './scenario-modules.js';
import { effectiveSlos, latencyBoundMs, thresholdsFor } from './slos.js';
import { chromiumTrustArgs, k6TlsEnv } from './tls.js';
import { effectiveShape } from './workload.js';

/**
 * The LoadConfig a scenario reads from DIALTONE_LOAD: the profile's hosts, ids and script phrases,
 * the names (never the values) of the variables holding its credentials, and where the data file is.
 * Shared by `dialtone load` and the k6-operator manifests, whose pods read the data file at /test.
 *
 * @example
 * const config = loadConfigOf({ scenario: 'chat-turns', workload: 'smoke', loaded, dataFile: '/test/data.json' });
 */
export function loadConfigOf(run: {
  scenario: string;
  workload: WorkloadName;
  loaded: LoadedProfile;
  dataFile: string;
  /** Browser scenarios: the voice client page the scenario serves to its own pages. */
  voiceClientFile?: string | undefined;
  overrides?: LoadConfig['overrides'];
  now?: number;
  /** The profile's dialogues (src/load/dialogues.ts), already read: the config names the file and counts them. */
  dialogues?: DialogueSet | undefined;
  /** The workload as the load plan shaped it (src/load/plan.ts); shaped here when not given. */
  shaped?: ShapedWorkload | undefined;
}): LoadConfig {
  const p = run.loaded.profile;
  const thresholds = run.shaped?.thresholds ?? thresholdsFor(run.scenario, run.workload, p);
  const { shape, sources, iterationS } =
    run.shaped ?? effectiveShape({ scenario: run.scenario, workload: run.workload, profile: p, thresholds, overrides: run.overrides });
  return {
    scenario: run.scenario,
    profile: run.workload,
    target: {
      name: p.name,
      kind: p.kind,
      hosts: Object.fromEntries(Object.entries(p.hosts).filter(([, v]) => v)) as Record<string, string>,
      api_version: p.api_version,
      account_id: p.account_id,
      project_id: p.project_id,
      variant_id: p.variant_id,
      chat_script: p.chat_script,
      messaging_host: p.messaging_host,
      names: p.names,
      records_window: recordsWindow(p, run.now ?? Date.now()),
    },
    secretEnv: Object.fromEntries(Object.entries(p.credentials).map(([name, ref]) => [name, ref?.env ?? ''])),
    dataFile: run.dataFile,
    ...dialoguesField(run.dialogues, run.scenario),
    ...(run.voiceClientFile ? { voiceClientFile: run.voiceClientFile } : {}),
    overrides: run.overrides,
    thresholds,
    shape,
    sloBoundsMs: Object.fromEntries(
      Object.entries(thresholds).flatMap(([key, list]) => {
        const bound = latencyBoundMs(list);
        return bound === undefined ? [] : [[key, bound]];
      }),
    ),
    ...(iterationS === undefined ? {} : { iterationBoundMs: iterationS * 1000 }),
    provenance: { slos: effectiveSlos(run.scenario, p), shape: sources, iterationS },
  };
}

/** What a run of one scenario needs on disk and in its environment, made in the run's work folder. */
export interface RunKit {
  /** The engine that runs it: the user's k6 or the built-in engine (src/load/engine.ts). */
  readonly engine: Engine;
  /** The bundled scenario. */
  readonly script: string;
  readonly config: LoadConfig;
  /** Chromium for a browser scenario, and the trust the engine (and Chromium) need: no secret values. */
  readonly env: Readonly<Record<string, string>>;
  /** Whether the profile turned certificate verification off (the report says so). */
  readonly insecure: boolean;
}

/**
 * Everything a run of a plan needs, made in `work`: the bundled script, the data file (with the plan's dialogues), the
 * voice client page for a browser scenario (served by the scenario itself), and the environment that makes the engine
 * and Chromium trust what the profile trusts. Shared by `dialtone load` and the capacity search.
 *
 * @example
 * const kit = await prepareRunKit(planAgainst(plan, session.loaded), '/tmp/run');
 */
export async function prepareRunKit(plan: TargetedPlan, work: string): Promise<RunKit> {
  const { root, scenario, engine, loaded, dialogues } = plan;
  const p = loaded.profile;
  const trust = trustOf(p, loaded.path);
  // A scenario on a module of dialtone's own (voice calls on werift) runs on the built-in engine only.
  refuseOnK6(engine, root, scenario);
  // A browser scenario (one importing k6/browser) needs Chromium; without it the run stops here with how to install it.
  const isBrowser = drivesChromium(root, scenario);
  const browser = isBrowser ? browserEnv(ensureChromium(), await chromiumTrustArgs(p.hosts.webrtc_url, trust)) : {};
  mkdirSync(work, { recursive: true });
  const script = await bundleScenario(root, scenario, join(work, 'script.js'));
  const dataFile = join(work, 'data.json');
  writeChatData(dataFile, 20261121, 500, dialogues);
  // The browser scenario serves the voice client page itself (page.route), so any gateway can be loaded.
  const voiceClientFile = isBrowser ? join(work, 'voice-client.html') : undefined;
  if (voiceClientFile) writeFileSync(voiceClientFile, voiceClientPage());
  const config = loadConfigOf({
    scenario,
    workload: plan.workload,
    loaded,
    dataFile,
    voiceClientFile,
    overrides: plan.overrides,
    dialogues,
    shaped: plan.shaped,
  });
  return { engine, script, config, env: { ...browser, ...k6TlsEnv(trust, work), ...engineThreadsEnv(engine, p) }, insecure: trust.insecure };
}
