import type { Proofs } from './spec.js';

/** How each documented audio rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const audioProofs: Proofs = {
  'audio.path.v3': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 1 }, how: 'empty' } },
  'audio.response.wav': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 0 }, how: 'empty' } },
  'audio.direction.default-combined': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 1 }, how: 'values' } },
  'audio.direction.user': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 2 }, how: 'values' } },
  'audio.direction.agent': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 2 }, how: 'values' } },
  'audio.redacted.default-false': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 1 }, how: 'empty' } },
  'audio.redaction.pii-false-raw': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 2 }, how: 'empty' } },
  'audio.redaction.pii-true-redacted': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 2 }, how: 'empty' } },
  'audio.redaction.no-pii-false-redacted': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 3 }, how: 'empty' } },
  'audio.redaction.no-pii-true-redacted': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 2 }, how: 'empty' } },
  'audio.auth.x-api-key-required': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 1 }, how: 'status-class' } },
  'audio.errors.rejections-not-success': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations/*/audio', nth: 2 }, how: 'status-class' } },
};
