import type { Proofs } from './spec.js';

/** How each documented voice rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const voiceProofs: Proofs = {
  'voice.path.api-v1': { mutation: { on: { method: 'GET', path: '/api/v1/ice-servers', nth: 0 }, how: 'status-class' } },
  'voice.signaling.required-fields': { mutation: { on: { socket: 'voice', type: 'error', nth: 1 }, how: 'empty' } },
  'voice.signaling.type-enum': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.signaling.offer-creates-session': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'values' } },
  'voice.signaling.answer-session-id': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'empty' } },
  'voice.signaling.session-id-reused': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'empty' } },
  'voice.signaling.mode-values': { mutation: { on: { socket: 'voice', type: 'answer', nth: 1 }, how: 'values' } },
  'voice.signaling.mode-default': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'drop' } },
  'voice.signaling.mode-unknown': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.signaling.optional-fields': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'values' } },
  'voice.signaling.call-sid-camel-case': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'drop' } },
  'voice.signaling.error-shape': { mutation: { on: { socket: 'voice', type: 'error', nth: 1 }, how: 'empty' } },
  'voice.auth.token-on-every-offer': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'empty' } },
  'voice.errors.auth-token-required': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.errors.unauthorized-invalid': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.errors.invalid-argument': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.errors.invalid-message': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.errors.handler-error': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.errors.media-bridge-failure': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.errors.agent-failure': { mutation: { on: { socket: 'voice', type: 'error', nth: 0 }, how: 'values' } },
  'voice.ice-servers.bearer': { mutation: { on: { method: 'GET', path: '/api/v1/ice-servers', nth: 0 }, how: 'status-near' } },
  'voice.ice-servers.auth-required': { mutation: { on: { method: 'GET', path: '/api/v1/ice-servers', nth: 1 }, how: 'status-class' } },
  'voice.ice-servers.usable-directly': { mutation: { on: { method: 'GET', path: '/api/v1/ice-servers', nth: 0 }, how: 'empty' } },
  'voice.ice-servers.fresh-credentials': { mutation: { on: { method: 'GET', path: '/api/v1/ice-servers', nth: 1 }, how: 'empty' } },
  'voice.ice-servers.turns-443': { mutation: { on: { method: 'GET', path: '/api/v1/ice-servers', nth: 0 }, how: 'empty' } },
  'voice.audio.opus-48k-stereo': { mutation: { on: { socket: 'voice', type: 'answer', nth: 0 }, how: 'empty' } },
  // The case reads each gateway ice-candidate frame: one emptied to its type is no longer {type, sessionId, data}.
  'voice.signaling.ice-both-ways': { mutation: { on: { socket: 'voice', type: 'ice-candidate', nth: 0 }, how: 'empty' } },
  'voice.signaling.close-ends-session': {
    reason:
      'scripts/find-mutations.ts tried every rewrite of each answer and frame of its case; none ended in a failed check: the case checks the session ends ' +
      "through the gateway's state after close, and rewriting the frames before it turns into a timeout.",
  },
  'voice.audio.bidirectional': {
    reason:
      'Its case checks decoded RTP audio (Opus over WebRTC, werift): audio never passes the mutation hook, which sees HTTP answers and signaling frames ' +
      'only. Defects of the reference target prove it instead.',
  },
};
