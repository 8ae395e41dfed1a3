import type { Proofs } from './spec.js';

/** How each documented webhooks rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const webhooksProofs: Proofs = {
  'webhooks.auth.x-api-key-header': { mutation: { on: { method: 'POST', path: '/v1/webhook-endpoints', nth: 0 }, how: 'status-class' } },
  'webhooks.auth.missing-key-401': { mutation: { on: { method: 'POST', path: '/v1/webhook-endpoints', nth: 0 }, how: 'status-near' } },
  'webhooks.auth.invalid-key-401': { mutation: { on: { method: 'POST', path: '/v1/webhook-endpoints', nth: 0 }, how: 'status-near' } },
  'webhooks.endpoint.create-fields': { mutation: { on: { method: 'POST', path: '/v1/webhook-endpoints', nth: 0 }, how: 'status-class' } },
  'webhooks.endpoint.event-types-enum': { mutation: { on: { method: 'POST', path: '/v1/webhook-endpoints', nth: 2 }, how: 'status-class' } },
  'webhooks.endpoint.signing-secret-once': { mutation: { on: { method: 'POST', path: '/v1/webhook-endpoints', nth: 0 }, how: 'empty' } },
  'webhooks.delivery.signed': { mutation: { on: { method: 'POST', path: '/v1/alert-rules', nth: 0 }, how: 'empty' } },
  'webhooks.delivery.subscribed-only': { mutation: { on: { method: 'POST', path: '/v1/alert-rules', nth: 0 }, how: 'empty' } },
  'webhooks.event.triggered': { mutation: { on: { method: 'POST', path: '/v1/alert-rules', nth: 0 }, how: 'empty' } },
  'webhooks.event.resolved': { mutation: { on: { method: 'POST', path: '/v1/alert-rules', nth: 0 }, how: 'empty' } },
  'webhooks.payload.triggered-fields': { mutation: { on: { method: 'POST', path: '/v1/alert-rules', nth: 0 }, how: 'empty' } },
};
