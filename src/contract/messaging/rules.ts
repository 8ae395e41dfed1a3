import { defineRules } from '../rule.js';

const doc = 1 as const;
const surface = 'messaging' as const;

/** Every rule of the Messaging API (document 1), one sentence each. */
export const MessagingRules = defineRules({
  // --- flow -------------------------------------------------------------------------------------
  'messaging.flow.sequence': {
    doc,
    surface,
    kind: 'transition',
    section: 'Endpoints / Messaging rules',
    statement:
      'The sequence access token, session, WebSocket, wait for EVENT_TYPE_EVENT_BATCH, then EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN with payload {} ' +
      'completes with EVENT_TYPE_SERVICE_AGENT_JOINED.',
  },
  'messaging.flow.api-v1-paths': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'The access-token and session endpoints are served under /api/v1 (POST /api/v1/access-token, POST /api/v1/sessions).',
  },
  'messaging.flow.cluster-must-match': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Base addresses',
    statement: 'The messaging cluster must match the project, but what a host of the wrong cluster answers is not shown.',
  },
  'messaging.flow.http-error-body': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'The JSON shape that carries an HTTP error text is not shown; the suite looks for the exact text anywhere in the body.',
  },

  // --- access token -----------------------------------------------------------------------------
  'messaging.access-token.success': {
    doc,
    surface,
    kind: 'status',
    section: 'Resources / Access token',
    statement: 'POST access-token with a valid X-Token, a matching X-Host, Content-Type: application/json and body {} answers 200.',
  },
  'messaging.access-token.content-type-required': {
    doc,
    surface,
    kind: 'status',
    section: 'Resources / Access token',
    statement:
      'Content-Type: application/json is required on an access-token request: without it, or with another media type, the request is refused with 400 ' +
      '(missing required headers).',
  },
  'messaging.access-token.response-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Access token',
    statement: 'The 200 access-token response carries access_token (a JWT string), expires_in (integer seconds) and token_type.',
  },
  'messaging.access-token.token-type-bearer': {
    doc,
    surface,
    kind: 'enum',
    section: 'Resources / Access token',
    statement: 'token_type in the access-token response is always the string Bearer.',
  },
  'messaging.access-token.host-subdomain-matches': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: "An X-Host that is a subdomain of the connector's registered domain matches and gets 200 with an access token.",
  },
  'messaging.access-token.missing-headers': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Access token endpoint',
    statement: 'An access-token request without X-Token or without X-Host answers 401 with the text Missing authentication headers.',
  },
  'messaging.access-token.connector-token-not-found': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Access token endpoint',
    statement: 'An access-token request whose X-Token is not a valid connector token answers 401 with the text Connector token does not exist.',
  },
  'messaging.access-token.validate-connector-failed': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Access token endpoint',
    statement:
      'An access-token request whose X-Host does not match the registered domain (nor a subdomain of it) answers 401 with the text Failed to validate ' +
      'connector.',
  },
  'messaging.access-token.connector-missing-host': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Access token endpoint',
    statement: 'An access-token request for a connector that has no host domain answers 401 with the text Connector missing host domain.',
  },
  'messaging.access-token.create-failed': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Access token endpoint',
    statement: 'An internal error while issuing an access token answers 500 with the text Failed to create access token.',
  },

  // --- session ----------------------------------------------------------------------------------
  'messaging.session.success': {
    doc,
    surface,
    kind: 'status',
    section: 'Resources / Session',
    statement: 'POST sessions with Authorization: Bearer <access_token> and Content-Type: application/json answers 200 with session_id (string).',
  },
  'messaging.session.content-type-required': {
    doc,
    surface,
    kind: 'status',
    section: 'Resources / Session',
    statement:
      'Content-Type: application/json is required on a session request, with or without a body: without it, or with another media type, the request is ' +
      'refused with 400 (missing required headers).',
  },
  'messaging.session.body-optional': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Session',
    statement: 'A session request with no body answers 200, and the session behaves as streaming_enabled false and platform web.',
  },
  'messaging.session.user-agent-optional': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Session',
    statement: 'A session request without a User-Agent header is accepted with 200.',
  },
  'messaging.session.platform-enum': {
    doc,
    surface,
    kind: 'enum',
    section: 'Resources / Session',
    statement: 'platform is one of web, ios, android, custom, and a session request with each of the four answers 200.',
  },
  'messaging.session.platform-unknown': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources / Session',
    statement: 'What a session request with a platform outside the enum answers is not shown.',
  },
  'messaging.session.missing-access-token': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Session endpoint',
    statement: 'A session request without an Authorization header answers 400 with the text Missing access token.',
  },
  'messaging.session.missing-auth-headers': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Session endpoint',
    statement: 'A session request whose Authorization header is not in Bearer form answers 401 with the text Missing authentication headers.',
  },
  'messaging.session.invalid-access-token': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Session endpoint',
    statement: 'A session request with a malformed or tampered Bearer token answers 401 with the text Invalid access token.',
  },
  'messaging.session.parse-error': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Session endpoint',
    statement: 'A session request whose body is invalid JSON answers 400 with the text Error parsing request.',
  },
  'messaging.session.create-failed': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Session endpoint',
    statement: 'An internal error while creating a session answers 500 with the text Failed to create session.',
  },

  // --- WebSocket --------------------------------------------------------------------------------
  'messaging.ws.connect': {
    doc,
    surface,
    kind: 'status',
    section: 'Endpoints',
    statement: "GET /ws with the session's access_token and session_id as query parameters upgrades to a WebSocket.",
  },
  'messaging.ws.history-batch-on-connect': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement: 'After the socket opens the server sends EVENT_TYPE_EVENT_BATCH with the session history, also on a new session.',
  },
  'messaging.ws.invalid-params': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / WebSocket handshake',
    statement: 'A WebSocket handshake without session_id or without access_token is refused with HTTP 400 and the text invalid connection parameters.',
  },
  'messaging.ws.session-not-found': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / WebSocket handshake',
    statement: 'A WebSocket handshake with an unknown session_id is refused with HTTP 404 and the text session not found.',
  },
  'messaging.ws.auth-failed': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / WebSocket handshake',
    statement: 'A WebSocket handshake with an invalid access_token is refused with HTTP 401 and the text authentication failed.',
  },
  'messaging.ws.auth-failed-expired': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / WebSocket handshake',
    statement: 'A WebSocket handshake with an access_token past its expires_in is refused with HTTP 401 and the text authentication failed.',
  },
  'messaging.ws.token-must-belong-to-session': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Authentication',
    statement:
      "A WebSocket handshake with a valid access_token issued for another connector than the session's is refused with HTTP 401 and the text " +
      'authentication failed.',
  },
  'messaging.ws.token-same-connector': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Authentication',
    statement: "Whether a second access token of the same connector (not the one the session was created with) may open the session's socket is not shown.",
  },
  'messaging.ws.connection-limit': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / WebSocket handshake',
    statement:
      'A WebSocket handshake beyond the simultaneous-connection limit of the session is refused with HTTP 429 and the text connection limit exceeded for ' +
      'session.',
  },
  'messaging.ws.handshake-errors-are-http': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors / WebSocket handshake',
    statement: 'Handshake errors are HTTP responses to the upgrade request: the socket never opens and no event is sent.',
  },
  'messaging.ws.invalid-cursor-full-replay': {
    doc,
    surface,
    kind: 'event',
    section: 'Errors',
    statement: 'A non-numeric cursor does not reject the connection: the server treats it as seq:0 and replays the full history.',
  },
  'messaging.ws.cursor-replays-after': {
    doc,
    surface,
    kind: 'event',
    section: 'Resources / Messaging event envelope',
    statement: 'A reconnect with cursor seq:<n> replays exactly the history events after position n, none before it and none twice.',
  },
  'messaging.ws.no-cursor-replay': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources / Messaging event envelope',
    statement: 'What a reconnect without a cursor replays is not shown (the reference target replays the full history).',
  },
  'messaging.ws.cursor-beyond-end': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources / Messaging event envelope',
    statement: 'What a cursor beyond the end of the history replays is not shown (the reference target sends an empty batch).',
  },
  'messaging.ws.replay-same-as-live': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement:
      'An event replayed in EVENT_TYPE_EVENT_BATCH on reconnect carries the documented server-event fields (id, timestamp, type, payload, metadata with ' +
      'custom) with the values it had when it was delivered live.',
  },
  'messaging.ws.history-contents': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'The payload shape of EVENT_TYPE_EVENT_BATCH and which events enter the history are not shown.',
  },
  'messaging.ws.dropped-not-session-end': {
    doc,
    surface,
    kind: 'transition',
    section: 'Errors',
    statement: 'A dropped connection does not end the session: no SESSION_END is sent and a reconnect with the same session_id and a cursor succeeds.',
  },

  // --- events -----------------------------------------------------------------------------------
  'messaging.events.envelope-type-payload': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Messaging event envelope',
    statement: 'Every event is a JSON object with type (string) and payload (object).',
  },
  'messaging.events.envelope-invalid': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Messaging event envelope',
    statement:
      'A client event without type or without an object payload is answered with an EVENT_TYPE_SYSTEM_MESSAGE Unknown event type or invalid message format.',
  },
  'messaging.events.server-envelope-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Messaging event envelope',
    statement: 'Every server event carries id, timestamp and metadata besides type and payload.',
  },
  'messaging.events.metadata-custom-echo': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Messaging event envelope',
    statement: 'Custom metadata a client sends in metadata.custom is echoed in metadata.custom of the server events that answer it.',
  },
  'messaging.events.metadata-custom-echo-errors': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Messaging event envelope',
    statement: 'The metadata.custom echo also appears in the error system message answering an invalid client event.',
  },
  'messaging.events.envelope-extra-fields': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources / Messaging event envelope',
    statement: 'Envelope fields beyond type, payload, id, timestamp and metadata, and the formats of id and timestamp, are not shown.',
  },
  'messaging.events.client-types-five': {
    doc,
    surface,
    kind: 'enum',
    section: 'Endpoints / Messaging rules',
    statement: 'Exactly five client event types are allowed, EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN among them, and each is accepted without an error message.',
  },
  'messaging.events.client-type-names': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints / Messaging rules',
    statement:
      'The names of the four client event types besides EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN are not shown (the reference target uses USER_MESSAGE, ' +
      'TYPING_INDICATOR, DELIVERY_RECEIPT, REQUEST_LIVE_AGENT).',
  },
  'messaging.events.client-payloads': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints / Messaging rules',
    statement: 'The payload shapes of the four other client events are not shown.',
  },
  'messaging.events.join-empty-payload': {
    doc,
    surface,
    kind: 'field',
    section: 'Endpoints / Messaging rules',
    statement: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN is sent with an empty payload object {} and is accepted so.',
  },
  'messaging.events.server-only-rejected': {
    doc,
    surface,
    kind: 'enum',
    section: 'Endpoints / Messaging rules',
    statement:
      'A client event whose type is server-only (for example EVENT_TYPE_SERVICE_AGENT_JOINED) is rejected with a system message and the connection stays open.',
  },
  'messaging.events.not-allowed-text': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A server-only type sent by the client is answered with an EVENT_TYPE_SYSTEM_MESSAGE at level SYSTEM_MESSAGE_LEVEL_ERROR with the text Event type ' +
      'not allowed: followed by that type.',
  },
  'messaging.events.unknown-type-text': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'An unparseable JSON frame or a client event of an unknown type is answered with an EVENT_TYPE_SYSTEM_MESSAGE at level SYSTEM_MESSAGE_LEVEL_ERROR ' +
      'with the text Unknown event type or invalid message format.',
  },
  'messaging.events.invalid-keeps-open': {
    doc,
    surface,
    kind: 'transition',
    section: 'Errors',
    statement: 'After an invalid client event the connection stays open and a following valid client event is processed normally.',
  },
  'messaging.events.error-level': {
    doc,
    surface,
    kind: 'field',
    section: 'Events',
    statement: 'Error system messages carry level SYSTEM_MESSAGE_LEVEL_ERROR.',
  },
  'messaging.events.server-catalogue': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'The full catalogue of server events and their payloads is not shown; the suite records which types it observes.',
  },
  'messaging.events.session-end-after-errors': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'Which error system messages are followed by SESSION_END is not shown (the reference target ends the session after Error: Session not found).',
  },

  // --- agent join -------------------------------------------------------------------------------
  'messaging.join.after-history': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement: 'On a new session, EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN sent after the history replay makes EVENT_TYPE_SERVICE_AGENT_JOINED appear.',
  },
  'messaging.join.not-automatic': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement: 'The agent does not join automatically: without a join request no EVENT_TYPE_SERVICE_AGENT_JOINED arrives.',
  },
  'messaging.join.reconnect-joined-in-history': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement:
      'On reconnect to a session whose agent has joined, the replayed history contains EVENT_TYPE_SERVICE_AGENT_JOINED and the agent stays joined without ' +
      'a new join request.',
  },
  'messaging.join.second-request': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'States and transitions',
    statement: 'What a second join request after the agent has joined does is not shown.',
  },
  'messaging.join.before-history': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints / Messaging rules',
    statement: 'What a join request sent before EVENT_TYPE_EVENT_BATCH arrives does is not shown.',
  },

  // --- streaming --------------------------------------------------------------------------------
  'messaging.streaming.enabled-chunks': {
    doc,
    surface,
    kind: 'event',
    section: 'Resources / Session',
    statement: 'With streaming_enabled true, agent responses arrive as several incremental chunk events.',
  },
  'messaging.streaming.disabled-complete': {
    doc,
    surface,
    kind: 'event',
    section: 'Resources / Session',
    statement: 'With streaming_enabled false or omitted, each agent response arrives as one complete message event and no chunks.',
  },
  'messaging.streaming.chunk-shape': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'The event type and payload of chunks and complete agent messages are not shown.',
  },

  // --- session-state system messages ------------------------------------------------------------
  'messaging.session-state.session-not-found': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'When the session behind an open socket no longer exists, the server sends a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text Error: ' +
      'Session not found.',
  },
  'messaging.session-state.unable-to-retrieve': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A transient failure to load the session is reported as a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text Error: Unable to retrieve ' +
      'session.',
  },
  'messaging.session-state.connector-not-found': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A session whose connector is gone is reported as a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text Error: Connector not found.',
  },
  'messaging.session-state.conversation-not-found': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A session whose conversation is gone is reported as a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text Error: Conversation not found.',
  },
  'messaging.session-state.conversation-id-missing': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A message needing a conversation before the session has one is answered with a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text ' +
      'Error: Conversation ID not found in session.',
  },

  // --- agent-side system messages (texts not shown) ---------------------------------------------
  'messaging.agent.high-load': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'Under high load the server sends a transient system message whose exact text is not shown.',
  },
  'messaging.agent.start-failed': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'When a conversation cannot start the server sends a system message whose exact text is not shown, and a new join request may be sent.',
  },
  'messaging.agent.trouble-responding': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'When the agent has trouble responding the server sends a system message whose exact text is not shown.',
  },
  'messaging.agent.streaming-error': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'An error during streaming is reported with a system message whose exact text is not shown.',
  },

  // --- live-agent handoff -----------------------------------------------------------------------
  'messaging.handoff.forward-failed': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A user message that cannot be forwarded to the live agent is answered with a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text ' +
      'Failed to forward message to live agent.',
  },
  'messaging.handoff.not-initiated': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors',
    statement:
      'A handoff that cannot start because of configuration is answered with a system message at level SYSTEM_MESSAGE_LEVEL_ERROR with the text Sorry, ' +
      'handoff could not be initiated.',
  },
  'messaging.handoff.live-agent-reaches-session': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement:
      "After a handoff, once a live agent has joined, the live agent's messages reach the session: every socket open on it receives them live, and a " +
      'reconnect replays them.',
  },
  'messaging.handoff.agent-connect-failed': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'When no live agent can be connected the server sends a system message whose exact text is not shown.',
  },

  // --- expiry -----------------------------------------------------------------------------------
  'messaging.expiry.idle-ten-minutes': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement: 'A session with no activity for about 10 minutes expires: a WebSocket handshake for it is refused with HTTP 404 session not found.',
  },
  'messaging.expiry.alive-before': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement: 'A session idle for well under 10 minutes (for example 5 minutes) is not expired and a reconnect to it succeeds.',
  },
  'messaging.expiry.new-session-required': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement: 'An expired session cannot be resumed, while a new session created afterwards with a valid access token works.',
  },
  'messaging.expiry.activity-definition': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement: 'What counts as activity that postpones session expiry, and the exact expiry margin, are not shown.',
  },

  // --- limits -----------------------------------------------------------------------------------
  'messaging.limits.sockets-per-session': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'Ten simultaneous WebSocket connections to one session are accepted and the eleventh is refused with HTTP 429.',
  },
  'messaging.limits.socket-slot-freed': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement: 'Whether closing one of ten sockets frees a slot at once is not shown.',
  },
  'messaging.limits.rate-limit-http': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'A rate-limited request to a messaging HTTP endpoint answers 429 with a Retry-After header.',
  },
  'messaging.limits.retry-after-when': {
    doc,
    surface,
    kind: 'limit',
    section: 'Errors',
    statement:
      'The Retry-After of a rate-limited messaging HTTP request gives when to retry: retried before that time the request is still refused with 429, ' +
      'retried after it the request is accepted.',
  },
  'messaging.limits.rate-limit-values': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement:
      'The numeric rate-limit values are not shown, so neither when HTTP requests get 429 nor when WebSocket messages start being dropped can be predicted.',
  },
  'messaging.limits.access-token-lifetime': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'An access token is accepted until expires_in seconds have passed and afterwards a session request with it answers 401 Invalid access token.',
  },
});
