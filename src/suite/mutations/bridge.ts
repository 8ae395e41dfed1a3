import type { Proofs } from './spec.js';

/** How each documented bridge rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const bridgeProofs: Proofs = {
  'bridge.path.internal-v1': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'empty' } },
  'bridge.request.conversation-id-required': { mutation: { on: { method: 'POST', path: '/internal/v1/agentic-dial/bridge-ended', nth: 1 }, how: 'empty' } },
  'bridge.request.bridge-duration-required': { mutation: { on: { method: 'POST', path: '/internal/v1/agentic-dial/bridge-ended', nth: 1 }, how: 'empty' } },
  'bridge.request.call-duration-required': { mutation: { on: { method: 'POST', path: '/internal/v1/agentic-dial/bridge-ended', nth: 1 }, how: 'empty' } },
  'bridge.request.accepted': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'empty' } },
  'bridge.errors.error-message-body': { mutation: { on: { method: 'POST', path: '/internal/v1/agentic-dial/bridge-ended', nth: 2 }, how: 'empty' } },
  'bridge.effect.state-updated': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations', nth: 1 }, how: 'status-class' } },
  'bridge.effect.functions-receive-durations': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'values' } },
  'bridge.auth.external-events-key': { mutation: { on: { method: 'POST', path: '/internal/v1/agentic-dial/bridge-ended', nth: 1 }, how: 'status-class' } },
  'bridge.errors.rejections-not-success': { mutation: { on: { method: 'POST', path: '/internal/v1/agentic-dial/bridge-ended', nth: 2 }, how: 'status-class' } },
};
