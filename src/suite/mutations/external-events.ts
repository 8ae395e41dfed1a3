import type { Proofs } from './spec.js';

/** How each documented external-events rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const externalEventsProofs: Proofs = {
  'external-events.status.201-queued': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-near' } },
  'external-events.query.all-required': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 3 }, how: 'status-class' } },
  'external-events.location.headers': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.location.querystring': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.location.payload': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.event-id-path.dotted': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations', nth: 0 }, how: 'empty' } },
  'external-events.content-type.json': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.content-type.form-urlencoded': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.content-type.xml': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.content-type.text-plain': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-class' } },
  'external-events.payload.opaque': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations', nth: 4 }, how: 'empty' } },
  'external-events.errors.400-event-id-not-found': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 2 }, how: 'status-near' } },
  'external-events.errors.400-event-id-invalid': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-near' } },
  'external-events.errors.401-key': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 1 }, how: 'status-near' } },
  'external-events.errors.500-transient': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-near' } },
  'external-events.errors.error-message-body': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 2 }, how: 'empty' } },
  'external-events.auth.dedicated-key': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-near' } },
  'external-events.path.v1': { mutation: { on: { method: 'POST', path: '/v1/external-events/webhook', nth: 0 }, how: 'status-404' } },
};
