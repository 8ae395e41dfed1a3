import { derivedProofs } from '../derived/requests.js';
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
const registered: SurfaceProofs = {
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

/**
 * The registries with each derived case's own mutation added (`src/suite/derived/requests.ts`), as a case per operation
 * has: a derived case is proven able to fail like any other. A rule with only derived cases takes its first as its own.
 */
export const Proofs: SurfaceProofs = { ...registered };
for (const [id, byCase] of Object.entries(derivedProofs())) {
  const known = registered[id as keyof SurfaceProofs];
  const first = Object.values(byCase)[0];
  if (!first) continue;
  const base = known && 'mutation' in known ? known : { mutation: first };
  (Proofs as Record<string, unknown>)[id] = { ...base, operations: { ...base.operations, ...byCase } };
}
