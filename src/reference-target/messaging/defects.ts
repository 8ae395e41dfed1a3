import { defineDefects } from '../defect.js';

/** Defects of the Messaging API surface. Each breaks documented rules the way a real regression would. */
export const MessagingDefects = defineDefects({
  'messaging-subdomain-refused': {
    surface: 'messaging',
    breaks: ['messaging.access-token.host-subdomain-matches'],
    description: 'X-Host must equal the registered domain exactly; a subdomain of it is refused with Failed to validate connector.',
  },
  'messaging-host-suffix-match': {
    surface: 'messaging',
    breaks: ['messaging.access-token.validate-connector-failed'],
    description: 'X-Host is matched with a plain endsWith, so a look-alike such as myapp.dialtone.test passes for app.dialtone.test.',
  },
  'messaging-connector-text-changed': {
    surface: 'messaging',
    breaks: ['messaging.access-token.connector-token-not-found'],
    description: 'An unknown X-Token is answered 401 "Connector token not found" instead of "Connector token does not exist".',
  },
  'messaging-jwt-signature-unchecked': {
    surface: 'messaging',
    breaks: ['messaging.session.invalid-access-token', 'messaging.ws.auth-failed'],
    description: 'The access-token signature is never checked, so a tampered token opens sessions and sockets.',
  },
  'messaging-non-bearer-as-missing': {
    surface: 'messaging',
    breaks: ['messaging.session.missing-auth-headers'],
    description: 'An Authorization header not in Bearer form is answered 400 Missing access token instead of 401 Missing authentication headers.',
  },
  'messaging-ws-any-connector-token': {
    surface: 'messaging',
    breaks: ['messaging.ws.token-must-belong-to-session'],
    description: "The WebSocket handshake accepts any valid access token, also one of another connector than the session's.",
  },
  'messaging-ws-expired-token-accepted': {
    surface: 'messaging',
    breaks: ['messaging.ws.auth-failed-expired'],
    description: 'The WebSocket handshake checks the token signature but not its expiry.',
  },
  'messaging-eleventh-socket-accepted': {
    surface: 'messaging',
    breaks: ['messaging.limits.sockets-per-session'],
    description: 'The per-session socket cap is off by one: the eleventh simultaneous socket is accepted, the twelfth refused.',
  },
  'messaging-content-type-ignored': {
    surface: 'messaging',
    breaks: ['messaging.access-token.content-type-required', 'messaging.session.content-type-required'],
    description:
      'The handshake endpoints never look at Content-Type: a request without it, or with text/plain or a form type, is served like a JSON one ' +
      '(its body read as JSON whatever it says it is).',
  },
  'messaging-socket-limit-races': {
    surface: 'messaging',
    breaks: ['messaging.limits.sockets-per-session', 'messaging.ws.connection-limit'],
    description:
      "The handshake counts the session's sockets on a replica that lags by up to a second, so handshakes close together (a burst of " +
      'simultaneous ones) all see room and more than 10 sockets open on one session.',
  },
  'messaging-expires-in-ms': {
    surface: 'messaging',
    breaks: ['messaging.access-token.response-fields', 'messaging.limits.access-token-lifetime'],
    description:
      'expires_in is sent in milliseconds (3600000 for an hour) while the token lives its hour: a client that trusts it keeps a token a thousand ' +
      'times past its expiry.',
  },
  'messaging-socket-slot-kept': {
    surface: 'messaging',
    breaks: ['messaging.limits.sockets-per-session'],
    description:
      "A session's socket counter is raised on every open and never lowered on close, so once 10 sockets have opened a new one is refused with 429 " +
      'though fewer than 10 are open.',
  },
  'messaging-cursor-off-by-one': {
    surface: 'messaging',
    breaks: ['messaging.ws.cursor-replays-after'],
    description: 'A reconnect with cursor seq:n replays one event too many (the n-th event again).',
  },
  'messaging-invalid-cursor-refused': {
    surface: 'messaging',
    breaks: ['messaging.ws.invalid-cursor-full-replay'],
    description: 'A non-numeric cursor is refused with 400 invalid connection parameters instead of replaying from seq:0.',
  },
  'messaging-drop-ends-session': {
    surface: 'messaging',
    breaks: ['messaging.ws.dropped-not-session-end'],
    description: 'A socket that drops without a close frame ends its session: SESSION_END to the other sockets, and reconnects get 404.',
  },
  'messaging-not-allowed-text-changed': {
    surface: 'messaging',
    breaks: ['messaging.events.not-allowed-text'],
    description: 'A server-only type from a client is answered "Event type not permitted: <type>".',
  },
  'messaging-error-custom-dropped': {
    surface: 'messaging',
    breaks: ['messaging.events.metadata-custom-echo-errors'],
    description: 'The "Event type not allowed" error message does not echo the metadata.custom the client sent.',
  },
  'messaging-agent-auto-joins': {
    surface: 'messaging',
    breaks: ['messaging.join.not-automatic', 'messaging.session-state.conversation-id-missing'],
    description: "The agent joins by itself when a session's first socket opens, without a join request.",
  },
  'messaging-streaming-ignored': {
    surface: 'messaging',
    breaks: ['messaging.streaming.enabled-chunks'],
    description: 'streaming_enabled is stored but ignored: replies always arrive as one complete message.',
  },
  'messaging-session-expires-early': {
    surface: 'messaging',
    breaks: ['messaging.expiry.alive-before'],
    description: 'Sessions expire after 4 minutes without activity instead of about 10.',
  },
  'messaging-retry-after-missing': {
    surface: 'messaging',
    breaks: ['messaging.limits.rate-limit-http', 'messaging.limits.retry-after-when'],
    description: 'A rate-limited HTTP request gets 429 without a Retry-After header.',
  },
  'messaging-retry-after-zero': {
    surface: 'messaging',
    breaks: ['messaging.limits.retry-after-when'],
    description: 'A rate-limited HTTP request gets Retry-After: 0, though a retry is refused until its window ends.',
  },
  'messaging-bad-json-closes': {
    surface: 'messaging',
    breaks: ['messaging.events.invalid-keeps-open'],
    description: 'After answering an unparseable frame with the error message, the server closes the socket.',
  },
  'messaging-client-session-end-closes': {
    surface: 'messaging',
    breaks: ['messaging.events.server-only-rejected', 'messaging.events.error-level'],
    description: 'A SESSION_END sent by the client is taken as the client ending the session: no system message, the socket closes.',
  },
  'messaging-join-empty-payload-refused': {
    surface: 'messaging',
    // Every flow of a session starts with a join whose payload is {}: refusing it breaks each of them.
    breaks: [
      'messaging.flow.sequence',
      'messaging.session.body-optional',
      'messaging.ws.invalid-cursor-full-replay',
      'messaging.ws.cursor-replays-after',
      'messaging.ws.replay-same-as-live',
      'messaging.ws.dropped-not-session-end',
      'messaging.events.envelope-type-payload',
      'messaging.events.server-envelope-fields',
      'messaging.events.metadata-custom-echo',
      'messaging.events.client-types-five',
      'messaging.events.join-empty-payload',
      'messaging.events.invalid-keeps-open',
      'messaging.join.after-history',
      'messaging.join.reconnect-joined-in-history',
      'messaging.streaming.enabled-chunks',
      'messaging.streaming.disabled-complete',
      'messaging.session-state.session-not-found',
      'messaging.session-state.unable-to-retrieve',
      'messaging.session-state.connector-not-found',
      'messaging.session-state.conversation-not-found',
      'messaging.handoff.forward-failed',
      'messaging.handoff.not-initiated',
      'messaging.handoff.live-agent-reaches-session',
    ],
    description: 'A join request whose payload is exactly {} is taken for one without a payload and answered Unknown event type or invalid message format.',
  },
  'messaging-join-lost-on-reconnect': {
    surface: 'messaging',
    breaks: ['messaging.join.reconnect-joined-in-history'],
    description: 'Agent state lives on the socket: after a reconnect the history shows the join, but the agent no longer answers.',
  },
});
