// The scenarios' defaults (scenarios/NAME.defaults.ts), by scenario name: one row per scenario.
import chatTurns from '../../scenarios/chat-turns.defaults.js';
import conversationsPaging from '../../scenarios/conversations-paging.defaults.js';
import messagingSockets from '../../scenarios/messaging-sockets.defaults.js';
import outboundPolling from '../../scenarios/outbound-polling.defaults.js';
import voiceBrowser from '../../scenarios/voice-browser.defaults.js';
import voiceCalls from '../../scenarios/voice-calls.defaults.js';
import type { ScenarioDefaults } from './config.js';

/** What each scenario expects of a platform unless the profile says otherwise. */
export const SCENARIO_DEFAULTS: Readonly<Record<string, ScenarioDefaults>> = {
  'chat-turns': chatTurns,
  'conversations-paging': conversationsPaging,
  'messaging-sockets': messagingSockets,
  'outbound-polling': outboundPolling,
  'voice-browser': voiceBrowser,
  'voice-calls': voiceCalls,
};

/**
 * A scenario's defaults; every scenario has a row (tests/scenario-defaults keeps it so).
 *
 * @example
 * defaultsOf('chat-turns').slos['http_req_duration{op:chat.respond}']; // ['p(95)<500']
 */
export function defaultsOf(scenario: string): ScenarioDefaults {
  const d = SCENARIO_DEFAULTS[scenario];
  if (!d) throw new Error(`scenario '${scenario}' has no defaults row in src/load/defaults.ts`);
  return d;
}
