import { defineRules } from '../rule.js';

const doc = 1 as const;
const surface = 'voice' as const;

/** Every rule of the browser voice gateway (document 1), one sentence each. */
export const VoiceRules = defineRules({
  // --- paths ------------------------------------------------------------------------------------
  'voice.path.api-v1': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'The gateway serves signaling at wss /api/v1/webrtc/signal and ice-servers at GET /api/v1/ice-servers.',
  },

  // --- signaling --------------------------------------------------------------------------------
  'voice.signaling.required-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'Every signaling message carries type and sessionId, and a client message missing either is answered with an error of code INVALID_MESSAGE.',
  },
  'voice.signaling.type-enum': {
    doc,
    surface,
    kind: 'enum',
    section: 'Resources / Voice gateway signaling message',
    statement: 'type is one of offer, answer, ice-candidate, error, close, and a message of any other type is answered with an error of code INVALID_MESSAGE.',
  },
  'voice.signaling.offer-creates-session': {
    doc,
    surface,
    kind: 'transition',
    section: 'Endpoints / Voice signaling rules',
    statement: 'An offer with an empty sessionId, SDP data {type: offer, sdp} and a valid authToken creates a new session.',
  },
  'voice.signaling.answer-session-id': {
    doc,
    surface,
    kind: 'field',
    section: 'Endpoints / Voice signaling rules',
    statement: 'The server replies to a valid offer with an answer carrying a non-empty assigned sessionId and data {type: answer, sdp}.',
  },
  'voice.signaling.session-id-reused': {
    doc,
    surface,
    kind: 'field',
    section: 'Endpoints / Voice signaling rules',
    statement: 'Later client messages carrying the assigned sessionId (ice-candidate, close) are accepted without an error.',
  },
  'voice.signaling.ice-both-ways': {
    doc,
    surface,
    kind: 'event',
    section: 'Endpoints / Voice signaling rules',
    statement: 'Both sides exchange ice-candidate messages with data {candidate, sdpMid, sdpMLineIndex} until the peer connection is connected.',
  },
  'voice.signaling.close-ends-session': {
    doc,
    surface,
    kind: 'transition',
    section: 'Endpoints / Voice signaling rules',
    statement: 'A close message with the assigned sessionId ends the session and its peer connection stops carrying audio.',
  },
  'voice.signaling.after-close': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints / Voice signaling rules',
    statement: 'What the gateway answers to messages that use a closed or unknown sessionId is not shown.',
  },
  'voice.signaling.offer-with-session-id': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints / Voice signaling rules',
    statement: 'What an offer with a non-empty sessionId (renegotiation) does is not shown.',
  },
  'voice.signaling.mode-values': {
    doc,
    surface,
    kind: 'enum',
    section: 'Resources / Voice gateway signaling message',
    statement: 'mode is one of end-to-end, traditional, echo, and an offer with each of the three is accepted.',
  },
  'voice.signaling.mode-default': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'An offer without mode is accepted and runs in end-to-end mode.',
  },
  'voice.signaling.mode-unknown': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'An offer with a mode outside end-to-end, traditional, echo is answered with an error of code INVALID_ARGUMENT.',
  },
  'voice.signaling.mode-semantics': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources / Voice gateway signaling message',
    statement:
      'How end-to-end and traditional modes differ in what the caller hears is not shown, nor what echo does beyond returning the caller audio its name ' +
      'promises.',
  },
  'voice.signaling.optional-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement:
      'An offer carrying callSid, caller, callee, accountId, projectId, variantId and agentVersionOverride {artifactVersion, lambdaDeploymentVersion} is ' +
      'accepted.',
  },
  'voice.signaling.call-sid-camel-case': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'The call identifier field is spelled callSid in camelCase, distinct from call_sid of the outbound REST API.',
  },
  'voice.signaling.error-shape': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'A server error message has type error and data {code, message}, with code one of the six documented codes.',
  },
  'voice.signaling.after-error': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors / Voice gateway error message',
    statement: 'Whether the signaling socket stays open after an error message is not shown.',
  },

  // --- authentication ---------------------------------------------------------------------------
  'voice.auth.token-on-every-offer': {
    doc,
    surface,
    kind: 'field',
    section: 'Authentication',
    statement: 'authToken is required on every offer, studio draft and preview calls included, and an offer with a valid one is accepted.',
  },

  // --- errors -----------------------------------------------------------------------------------
  'voice.errors.auth-token-required': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'An offer without authToken is answered with an error of code UNAUTHORIZED and message Auth token required.',
  },
  'voice.errors.unauthorized-invalid': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'An offer with an invalid authToken is answered with an error of code UNAUTHORIZED (message not shown).',
  },
  'voice.errors.invalid-argument': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'An invalid field value in a signaling message is answered with an error of code INVALID_ARGUMENT (message not shown).',
  },
  'voice.errors.invalid-message': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'A frame that is not valid JSON is answered with an error of code INVALID_MESSAGE (message not shown).',
  },
  'voice.errors.handler-error': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'A failure while processing a well-formed signaling message is answered with an error of code HANDLER_ERROR (message not shown).',
  },
  'voice.errors.media-bridge-failure': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'A media connection that cannot be established is reported with an error of code MEDIA_BRIDGE_FAILURE (message not shown).',
  },
  'voice.errors.agent-failure': {
    doc,
    surface,
    kind: 'error-text',
    section: 'Errors / Voice gateway error message',
    statement: 'A failure to connect to the agent is reported with an error of code AGENT_FAILURE (message not shown).',
  },
  'voice.errors.messages': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors / Voice gateway error message',
    statement: 'Error messages other than Auth token required are not shown, and which code an SDP the gateway cannot use gets is not shown.',
  },

  // --- ice-servers ------------------------------------------------------------------------------
  'voice.ice-servers.bearer': {
    doc,
    surface,
    kind: 'status',
    section: 'Endpoints',
    statement: 'GET ice-servers with Authorization: Bearer <voice auth token> answers 200 with an object holding iceServers.',
  },
  'voice.ice-servers.unauthorized': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Authentication',
    statement: 'The status and body of GET ice-servers without a valid Bearer token are not shown.',
  },
  'voice.ice-servers.auth-required': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement:
      'ice-servers is behind Bearer auth with the voice auth token: without it, or with a token the gateway did not issue, the answer is not a success and ' +
      'carries no TURN credentials.',
  },
  'voice.ice-servers.usable-directly': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'iceServers is an array of RTCIceServer-like entries {urls, username?, credential?} that a peer connection accepts unchanged.',
  },
  'voice.ice-servers.fresh-credentials': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'TURN credentials are issued fresh per request: two ice-servers requests return different TURN username or credential values.',
  },
  'voice.ice-servers.turns-443': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources / Voice gateway signaling message',
    statement: 'The ice-servers response includes a turns: URL on port 443.',
  },
  'voice.ice-servers.credential-lifetime': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources / Voice gateway signaling message',
    statement: 'The lifetime of the ephemeral TURN credentials is not shown.',
  },

  // --- audio ------------------------------------------------------------------------------------
  'voice.audio.opus-48k-stereo': {
    doc,
    surface,
    kind: 'field',
    section: 'Endpoints / Voice signaling rules',
    statement: 'The answer SDP negotiates Opus (audio/opus) at 48000 Hz with 2 channels.',
  },
  'voice.audio.bidirectional': {
    doc,
    surface,
    kind: 'event',
    section: 'What the service does',
    statement:
      "Once connected, audio flows in both directions on a sendrecv transceiver: in echo mode the caller's own audio comes back, in end-to-end mode the " +
      "agent's audio arrives.",
  },
  'voice.audio.supported-browsers': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints / Voice signaling rules',
    statement: 'The supported browsers list (Chrome 72+, Firefox 60+, Safari 14.1+, Edge 79+) is informational and not checked against the gateway.',
  },
});
