import { AgentsAudit } from './agents/audit.js';
import { AgentsRules } from './agents/rules.js';
import { AlertsAudit } from './alerts/audit.js';
import { AlertsRules } from './alerts/rules.js';
import { AudioAudit } from './audio/audit.js';
import { AudioRules } from './audio/rules.js';
import type { SurfaceAudit } from './audit.js';
import { BridgeAudit } from './bridge/audit.js';
import { BridgeRules } from './bridge/rules.js';
import { ChatAudit } from './chat/audit.js';
import { ChatRules } from './chat/rules.js';
import { ConcurrencyAudit } from './concurrency/audit.js';
import { ConcurrencyRules } from './concurrency/rules.js';
import { ConversationsAudit } from './conversations/audit.js';
import { ConversationsRules } from './conversations/rules.js';
import { ExternalEventsAudit } from './external-events/audit.js';
import { ExternalEventsRules } from './external-events/rules.js';
import { MessagingAudit } from './messaging/audit.js';
import { MessagingRules } from './messaging/rules.js';
import { OutboundAudit } from './outbound/audit.js';
import { OutboundRules } from './outbound/rules.js';
import type { Rule, Surface } from './rule.js';
import { VoiceAudit } from './voice/audit.js';
import { VoiceRules } from './voice/rules.js';
import { WebhooksAudit } from './webhooks/audit.js';
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

/** Every surface's coverage audit rows (`<surface>/audit.ts`), by surface, for `dialtone rules --audit`. */
export const Audits: Readonly<Record<Surface, SurfaceAudit>> = {
  chat: ChatAudit,
  messaging: MessagingAudit,
  voice: VoiceAudit,
  conversations: ConversationsAudit,
  concurrency: ConcurrencyAudit,
  audio: AudioAudit,
  'external-events': ExternalEventsAudit,
  outbound: OutboundAudit,
  bridge: BridgeAudit,
  agents: AgentsAudit,
  alerts: AlertsAudit,
  webhooks: WebhooksAudit,
};
