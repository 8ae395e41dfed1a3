import type { Surface } from '../contract/rule.js';
import type { LoadedProfile } from '../profile/load.js';
import type { CredentialName, Profile } from '../profile/schema.js';

/** What a profile must name for a surface's cases to run: its host and its credentials. */
export const SURFACE_NEEDS: Record<Surface, { host: keyof Profile['hosts']; credentials: readonly CredentialName[] }> = {
  chat: { host: 'base_url', credentials: ['chat_api_key', 'chat_connector_token'] },
  messaging: { host: 'messaging_url', credentials: ['messaging_connector_token'] },
  voice: { host: 'webrtc_url', credentials: ['voice_auth_token'] },
  conversations: { host: 'base_url', credentials: ['conversations_api_key'] },
  concurrency: { host: 'base_url', credentials: ['conversations_api_key'] },
  audio: { host: 'base_url', credentials: ['conversations_api_key'] },
  'external-events': { host: 'base_url', credentials: ['external_events_key'] },
  outbound: { host: 'base_url', credentials: ['outbound_token'] },
  bridge: { host: 'base_url', credentials: ['external_events_key'] },
  agents: { host: 'agents_url', credentials: ['agents_api_key'] },
  alerts: { host: 'agents_url', credentials: ['agents_api_key'] },
  webhooks: { host: 'agents_url', credentials: ['agents_api_key'] },
};

/**
 * Why a surface's cases cannot run against this profile, or undefined when they can. A profile
 * that leaves a surface out gets its cases skipped with this reason, never failed.
 *
 * @example
 * missingFor('messaging', loaded) // 'the profile names no hosts.messaging_url'
 */
export function missingFor(surface: Surface, loaded: LoadedProfile): string | undefined {
  const needs = SURFACE_NEEDS[surface];
  if (!loaded.profile.hosts[needs.host]) return `the profile names no hosts.${needs.host}`;
  const lacking = needs.credentials.find((c) => !loaded.secrets[c]);
  return lacking ? `the profile names no credentials.${lacking}` : undefined;
}
