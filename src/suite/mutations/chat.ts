import type { Proofs } from './spec.js';

/** How each documented chat rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const chatProofs: Proofs = {
  'chat.create.body-optional': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'empty' } },
  'chat.create.response-fields': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'empty' } },
  'chat.create.fields-accepted': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'empty' } },
  'chat.create.channel-enum': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 3 }, how: 'status-class' } },
  'chat.create.variant-routes': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 1 }, how: 'empty' } },
  'chat.create.variant-only-on-create': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'empty' } },
  'chat.respond.conversation-id-required': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 0 }, how: 'status-class' } },
  'chat.respond.response-fields': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 0 }, how: 'empty' } },
  'chat.respond.optional-fields-accepted': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 0 }, how: 'empty' } },
  'chat.respond.continues': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 1 }, how: 'status-class' } },
  'chat.respond.flagged-to-end': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'status-class' } },
  'chat.respond.handoff-shape': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 0 }, how: 'empty' } },
  'chat.close.success-true': { mutation: { on: { method: 'PUT', path: '/v1/*/*/chat/close', nth: 0 }, how: 'status-class' } },
  'chat.close.conversation-id-required': { mutation: { on: { method: 'PUT', path: '/v1/*/*/chat/close', nth: 1 }, how: 'status-class' } },
  'chat.path.version-segment': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 0 }, how: 'status-class' } },
  'chat.path.slug-and-prefixed-ids': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 1 }, how: 'empty' } },
  'chat.path.id-forms-across-a-conversation': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 1 }, how: 'status-class' } },
  'chat.path.operation-segment': { mutation: { on: { method: 'POST', path: '/v1/*/*/chat/delete', nth: 0 }, how: 'status-class' } },
  // A target that checks the credentials on create only: respond and close let the second request (X-TOKEN missing or unknown) through.
  'chat.auth.headers-required': {
    mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 1 }, how: 'status-class' },
    operations: {
      respond: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 1 }, how: 'status-class' },
      close: { on: { method: 'PUT', path: '/v1/*/*/chat/close', nth: 1 }, how: 'status-class' },
    },
  },
  'chat.auth.invalid-credentials': {
    mutation: { on: { method: 'POST', path: '/v1/*/*/chat/create', nth: 1 }, how: 'status-class' },
    operations: {
      respond: { on: { method: 'POST', path: '/v1/*/*/chat/respond', nth: 1 }, how: 'status-class' },
      close: { on: { method: 'PUT', path: '/v1/*/*/chat/close', nth: 1 }, how: 'status-class' },
    },
  },
};
