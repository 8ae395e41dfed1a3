import type { Proofs } from './spec.js';

/** How each documented outbound rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const outboundProofs: Proofs = {
  'outbound.path.v1': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 0 }, how: 'empty' } },
  'outbound.trigger.e164-destination': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 5 }, how: 'status-class' } },
  'outbound.trigger.optional-metadata-encryption': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 2 }, how: 'status-class' } },
  'outbound.trigger.call-sid-prefix': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 0 }, how: 'empty' } },
  'outbound.status.enum': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 4 }, how: 'values' } },
  'outbound.status.queued': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 0 }, how: 'values' } },
  'outbound.status.calling': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 1 }, how: 'values' } },
  'outbound.status.success': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 0 }, how: 'values' } },
  'outbound.status.failure': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 0 }, how: 'values' } },
  'outbound.transition.connected-success': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 3 }, how: 'status-class' } },
  'outbound.transition.not-connected-failure': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 3 }, how: 'status-class' } },
  'outbound.transition.terminal-final': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 11 }, how: 'status-class' } },
  'outbound.transition.forward-only': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 3 }, how: 'status-class' } },
  'outbound.status.retained-about-2h': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 4 }, how: 'status-class' } },
  'outbound.status.404-after-retention': { mutation: { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 4 }, how: 'status-class' } },
  'outbound.status.404-unknown-call': {
    mutation: { on: { method: 'GET', path: '/v1/outbound-calling/OUT-dialtone-never-issued/status', nth: 0 }, how: 'status-near' },
  },
  'outbound.auth.service-token': {
    mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 1 }, how: 'status-class' },
    operations: { 'GET /v1/outbound-calling/{call_sid}/status': { on: { method: 'GET', path: '/v1/outbound-calling/*/status', nth: 1 }, how: 'status-class' } },
  },
  'outbound.errors.rejections-not-success': { mutation: { on: { method: 'POST', path: '/v1/outbound-calling', nth: 2 }, how: 'status-class' } },
};
