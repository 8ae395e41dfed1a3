import { AgentsRules } from './agents/rules.js';
import { AlertsRules } from './alerts/rules.js';
import { AudioRules } from './audio/rules.js';
import { BridgeRules } from './bridge/rules.js';
import { ChatRules } from './chat/rules.js';
import { ConcurrencyRules } from './concurrency/rules.js';
import { ConversationsRules } from './conversations/rules.js';
import { ExternalEventsRules } from './external-events/rules.js';
import { MessagingRules } from './messaging/rules.js';
import { OutboundRules } from './outbound/rules.js';
import type { Rule } from './rule.js';
import { VoiceRules } from './voice/rules.js';
import { WebhooksRules } from './webhooks/rules.js';

/** Every rule of the three documents, keyed by id, in document order. */
export const Rules = {
  ...ChatRules,
  ...MessagingRules,
  ...VoiceRules,
  ...ConversationsRules,
  ...ConcurrencyRules,
  ...AudioRules,
  ...ExternalEventsRules,
  ...OutboundRules,
  ...BridgeRules,
  ...AgentsRules,
  ...AlertsRules,
  ...WebhooksRules,
} as const;

/** A rule id known to the catalogue: a case for an unknown id is a type error. */
export type RuleId = keyof typeof Rules;

/** The catalogue as a list, in document order. */
export const ruleList: readonly Rule[] = Object.values(Rules);

/** Whether `id` names a catalogue rule. */
export function isRuleId(id: string): id is RuleId {
  return Object.hasOwn(Rules, id);
}
