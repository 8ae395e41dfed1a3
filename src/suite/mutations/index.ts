import { agentsProofs } from './agents.js';
import { alertsProofs } from './alerts.js';
import { audioProofs } from './audio.js';
import { bridgeProofs } from './bridge.js';
import { chatProofs } from './chat.js';
import { concurrencyProofs } from './concurrency.js';
import { conversationsProofs } from './conversations.js';
import { externalEventsProofs } from './external-events.js';
import { messagingProofs } from './messaging.js';
import { outboundProofs } from './outbound.js';
import type { Proofs as SurfaceProofs } from './spec.js';
import { voiceProofs } from './voice.js';
import { webhooksProofs } from './webhooks.js';

/** Every surface's registry of mutations (and reasons), by rule id. */
export const Proofs: SurfaceProofs = {
  ...chatProofs,
  ...messagingProofs,
  ...voiceProofs,
  ...conversationsProofs,
  ...concurrencyProofs,
  ...audioProofs,
  ...externalEventsProofs,
  ...outboundProofs,
  ...bridgeProofs,
  ...agentsProofs,
  ...alertsProofs,
  ...webhooksProofs,
};
