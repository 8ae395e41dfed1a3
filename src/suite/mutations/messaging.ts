import type { Proofs } from './spec.js';

/** How each documented messaging rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const messagingProofs: Proofs = {
  'messaging.ws.replay-same-as-live': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_EVENT_BATCH', nth: 1 }, how: 'values' } },
  // A target that sends the live agent's message to the socket that asked for the handoff only.
  'messaging.handoff.live-agent-reaches-session': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_LIVE_AGENT_MESSAGE', nth: 1 }, how: 'drop' } },
  'messaging.flow.sequence': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'status-class' } },
  'messaging.flow.api-v1-paths': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'empty' } },
  'messaging.access-token.success': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'status-near' } },
  'messaging.access-token.response-fields': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'empty' } },
  'messaging.access-token.token-type-bearer': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'values' } },
  'messaging.access-token.host-subdomain-matches': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 1 }, how: 'status-near' } },
  'messaging.access-token.missing-headers': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 1 }, how: 'values' } },
  'messaging.access-token.connector-token-not-found': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'values' } },
  'messaging.access-token.validate-connector-failed': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 1 }, how: 'values' } },
  'messaging.access-token.connector-missing-host': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'values' } },
  'messaging.access-token.create-failed': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'values' } },
  'messaging.session.success': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'status-near' } },
  'messaging.session.body-optional': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'empty' } },
  'messaging.session.user-agent-optional': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 1 }, how: 'values' } },
  'messaging.session.platform-enum': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'values' } },
  'messaging.session.missing-access-token': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.session.missing-auth-headers': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 2 }, how: 'values' } },
  'messaging.session.invalid-access-token': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 1 }, how: 'values' } },
  'messaging.session.parse-error': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.session.create-failed': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.ws.connect': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.ws.history-batch-on-connect': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_EVENT_BATCH', nth: 1 }, how: 'empty' } },
  'messaging.ws.invalid-params': { mutation: { on: { method: 'GET', path: '/ws', nth: 2 }, how: 'values' } },
  'messaging.ws.session-not-found': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 0 }, how: 'values' } },
  'messaging.ws.auth-failed': { mutation: { on: { method: 'GET', path: '/ws', nth: 1 }, how: 'values' } },
  'messaging.ws.auth-failed-expired': { mutation: { on: { method: 'GET', path: '/ws', nth: 0 }, how: 'values' } },
  'messaging.ws.token-must-belong-to-session': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.ws.connection-limit': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.ws.handshake-errors-are-http': { mutation: { on: { method: 'GET', path: '/ws', nth: 2 }, how: 'status-class' } },
  'messaging.ws.invalid-cursor-full-replay': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_EVENT_BATCH', nth: 4 }, how: 'values' } },
  'messaging.ws.cursor-replays-after': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_EVENT_BATCH', nth: 3 }, how: 'values' } },
  'messaging.events.envelope-type-payload': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'empty' } },
  'messaging.events.envelope-invalid': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 4 }, how: 'empty' } },
  'messaging.events.server-envelope-fields': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'empty' } },
  'messaging.events.metadata-custom-echo': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SERVICE_AGENT_JOINED', nth: 0 }, how: 'empty' } },
  'messaging.events.metadata-custom-echo-errors': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 2 }, how: 'empty' } },
  'messaging.events.client-types-five': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 2 }, how: 'values' } },
  'messaging.events.not-allowed-text': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 2 }, how: 'values' } },
  'messaging.events.unknown-type-text': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 2 }, how: 'values' } },
  'messaging.events.error-level': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 2 }, how: 'empty' } },
  'messaging.join.reconnect-joined-in-history': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_EVENT_BATCH', nth: 1 }, how: 'values' } },
  'messaging.streaming.enabled-chunks': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_AGENT_MESSAGE_CHUNK', nth: 0 }, how: 'values' } },
  'messaging.session-state.session-not-found': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.session-state.unable-to-retrieve': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.session-state.connector-not-found': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.session-state.conversation-not-found': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.session-state.conversation-id-missing': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.handoff.forward-failed': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.handoff.not-initiated': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_SYSTEM_MESSAGE', nth: 1 }, how: 'values' } },
  'messaging.expiry.idle-ten-minutes': { mutation: { on: { method: 'GET', path: '/ws', nth: 0 }, how: 'status-class' } },
  'messaging.expiry.new-session-required': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 1 }, how: 'status-class' } },
  'messaging.limits.sockets-per-session': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 0 }, how: 'values' } },
  'messaging.limits.retry-after-when': { mutation: { on: { method: 'POST', path: '/api/v1/access-token', nth: 4 }, how: 'status-class' } },
  'messaging.limits.rate-limit-http': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 2 }, how: 'status-class' } },
  'messaging.limits.access-token-lifetime': { mutation: { on: { method: 'POST', path: '/api/v1/sessions', nth: 1 }, how: 'status-class' } },
  'messaging.ws.dropped-not-session-end': {
    reason:
      'scripts/find-mutations.ts tried every rewrite of each answer and frame of its case; none ended in a failed check: the case checks that SESSION_END ' +
      'does not arrive after a dropped connection, and a rewrite of the frames that do arrive either leaves that true or breaks the barrier it waits on (a ' +
      'timeout, not a check failure).',
  },
  'messaging.events.join-empty-payload': {
    reason:
      'scripts/find-mutations.ts found no rewrite that fails its check: the case waits for the answer to the join (the joined event or a system message) ' +
      'and checks its type, so a retyped or dropped answer ends in a timeout (tried: retype gives "no answer within 3000 ms"), while other rewrites keep ' +
      'the type.',
  },
  'messaging.events.server-only-rejected': {
    reason:
      'scripts/find-mutations.ts found no rewrite that fails its check: each answer is awaited by type, so a retyped or dropped system message ends in a ' +
      'timeout (or, for the first one, leaves the case passing), and the socket staying open is the client side of the socket, which no rewrite of a frame ' +
      'changes.',
  },
  'messaging.events.invalid-keeps-open': {
    reason:
      'scripts/find-mutations.ts tried every rewrite of each answer and frame of its case; none ended in a failed check: the case checks the socket stays ' +
      'open and answers a barrier; a rewrite either leaves it open or breaks the barrier (a timeout).',
  },
  'messaging.join.after-history': {
    reason:
      'scripts/find-mutations.ts tried every rewrite of each answer and frame of its case; none ended in a failed check: the case waits for the agent to ' +
      'join after the history batch; a rewritten frame turns into a timeout, not a check failure.',
  },
  'messaging.join.not-automatic': {
    reason:
      'scripts/find-mutations.ts tried every rewrite of each answer and frame of its case; none ended in a failed check: the case checks that no agent ' +
      'joins before a barrier; rewrites of arriving frames leave that true or break the barrier.',
  },
  'messaging.streaming.disabled-complete': { mutation: { on: { socket: 'messaging', type: 'EVENT_TYPE_AGENT_MESSAGE', nth: 0 }, how: 'repeat' } },
  'messaging.expiry.alive-before': {
    reason:
      'scripts/find-mutations.ts tried every rewrite of each answer and frame of its case; none ended in a failed check: the socket of a session idle for ' +
      '5 minutes opens on the upgrade (101), which is not an HTTP answer the hook can rewrite, and its frames are waited for rather than checked.',
  },
};
