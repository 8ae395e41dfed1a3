import type { ClientEnv } from '../../contract/common.js';
import type { StoredConversation } from '../conversations.js';
import type { RecordData, TurnData } from './model.js';

/**
 * The environment of conversations the reference target serves itself: the one its profile declares
 * (`environment: 'sandbox'` in src/reference-target/server.ts), so cases find their own traffic with
 * `client_env` set to the profile's environment.
 */
export const TRAFFIC_ENVIRONMENT: ClientEnv = 'sandbox';

/** Analytics channel label per surface channel; an unknown one is upper-cased. */
const CHANNEL_LABELS: Record<string, string> = {
  webchat: 'WEBCHAT',
  api: 'CHAT',
  sms: 'SMS',
  whatsapp: 'WHATSAPP',
};

/** Intents of the live agents that mean the caller said nothing, or asked for something out of scope. */
const SILENT_INTENTS = new Set(['silence']);
const OOD_INTENTS = new Set(['out_of_domain', 'fallback']);

/**
 * Builds the record of a conversation the target served (chat, voice, messaging), at read time, so
 * records always show current traffic. A conversation counts as in progress until it is closed.
 *
 * @example
 * const record = recordOf(ctx.conversations.get(id)!, variants);
 */
export function recordOf(c: StoredConversation, variants: readonly { id: string; name: string }[]): RecordData {
  const turns: TurnData[] = c.turns.map((t) => ({
    userInput: t.userInput,
    userInputDtmf: '',
    userAt: t.userAt,
    bargeIn: false,
    agentResponse: t.agentResponse,
    agentAt: t.agentAt,
    latencyMs: Math.max(0, t.agentAt - t.userAt),
    intents: [t.intent],
    entities: {},
    isOod: OOD_INTENTS.has(t.intent),
    isSilence: SILENT_INTENTS.has(t.intent) || t.userInput.trim() === '',
  }));
  const closed = c.status === 'closed';
  const lastAt = c.turns.at(-1)?.agentAt ?? c.startedAt;
  const endedAt = closed ? (c.endedAt ?? lastAt) : undefined;
  const variant = variants.find((v) => v.id === c.variantId);
  const state: Record<string, unknown> = { language: 'en-GB', ...(c.integrationAttributes ?? {}) };
  if (c.caller) state.caller_number = c.caller;
  return {
    id: c.id,
    variantId: c.variantId ?? variants[0]?.id ?? '',
    variantName: c.variantId === undefined ? (variants[0]?.name ?? '') : (variant?.name ?? ''),
    environment: TRAFFIC_ENVIRONMENT,
    startedAt: c.startedAt,
    channel: CHANNEL_LABELS[c.channel] ?? c.channel.toUpperCase(),
    fromNumber: c.caller ?? '',
    toNumber: c.callee ?? '',
    inProgress: !closed,
    endedAt,
    handoffAtSeconds: c.handoff ? Math.round((lastAt - c.startedAt) / 1000) : undefined,
    handoff: c.handoff,
    language: 'en-GB',
    turns,
    state,
  };
}
