import type { LoadedProfile } from '../profile/load.js';
import type { LoadConfig, WorkloadName } from './config.js';
import { recordsWindow } from './records-window.js';

/**
 * The LoadConfig a scenario reads from DIALTONE_LOAD: the profile's hosts, ids and script phrases,
 * the names (never the values) of the variables holding its credentials, and where the data file is.
 * Shared by `dialtone load` and the k6-operator manifests, whose pods read the data file at /test.
 *
 * @example
 * const config = loadConfigOf({ scenario: 'chat-turns', profile: 'smoke', loaded, dataFile: '/test/data.json' });
 */
export function loadConfigOf(o: {
  scenario: string;
  profile: WorkloadName;
  loaded: LoadedProfile;
  dataFile: string;
  /** Browser scenarios: the voice client page the scenario serves to its own pages. */
  voiceClientFile?: string | undefined;
  overrides?: LoadConfig['overrides'];
  now?: number;
}): LoadConfig {
  const p = o.loaded.profile;
  return {
    scenario: o.scenario,
    profile: o.profile,
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
      records_window: recordsWindow(p, o.now ?? Date.now()),
    },
    secretEnv: Object.fromEntries(Object.entries(p.credentials).map(([name, ref]) => [name, ref?.env ?? ''])),
    dataFile: o.dataFile,
    ...(o.voiceClientFile ? { voiceClientFile: o.voiceClientFile } : {}),
    overrides: o.overrides,
  };
}
