// The scenarios' defaults (scenarios/NAME.defaults.ts), by scenario name, as their declarations hold them.
import type { ScenarioDefaults } from './config.js';
import { SCENARIOS } from './scenario-declarations.js';

/** What each scenario expects of a platform unless the profile says otherwise. */
export const SCENARIO_DEFAULTS: Readonly<Record<string, ScenarioDefaults>> = Object.freeze(
  Object.fromEntries(Object.entries(SCENARIOS).map(([name, d]) => [name, d.defaults])),
);

/**
 * A scenario's defaults; every scenario has them (its declaration does).
 *
 * @example
 * defaultsOf('chat-turns').slos['http_req_duration{op:chat.respond}']; // ['p(95)<500']
 */
export function defaultsOf(scenario: string): ScenarioDefaults {
  const d = SCENARIO_DEFAULTS[scenario];
  if (!d) throw new Error(`scenario '${scenario}' has no defaults (no scenarios/${scenario}.scenario.ts)`);
  return d;
}
