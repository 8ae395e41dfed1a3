import { z } from 'zod';
import { defineErrors } from '../rule.js';

// Browser voice gateway of document 1: WebSocket signaling, WebRTC/Opus audio, ice-servers.
// Anything marked "Reference-target choice" is what the reference target does where the document is silent.

export { VoicePaths } from './wire.js';

/** Signaling message types (document 1, Voice gateway signaling message). */
export const SignalingType = z.enum(['offer', 'answer', 'ice-candidate', 'error', 'close']);
export type SignalingType = z.infer<typeof SignalingType>;

/** Voice modes; `echo` is debug only. An unknown mode is answered INVALID_ARGUMENT. */
export const VoiceMode = z.enum(['end-to-end', 'traditional', 'echo']);
export type VoiceMode = z.infer<typeof VoiceMode>;

/** The mode used when an offer names none. */
export const DEFAULT_VOICE_MODE: VoiceMode = 'end-to-end';

/** Voice gateway error codes (document 1, Errors / Voice gateway error message). */
export const VoiceErrorCode = z.enum(['UNAUTHORIZED', 'INVALID_ARGUMENT', 'INVALID_MESSAGE', 'HANDLER_ERROR', 'MEDIA_BRIDGE_FAILURE', 'AGENT_FAILURE']);
export type VoiceErrorCode = z.infer<typeof VoiceErrorCode>;

/** `data` of an offer or answer: an SDP description. */
export const SdpData = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().min(1),
});
export type SdpData = z.infer<typeof SdpData>;

/** `data` of an ice-candidate message (RTCIceCandidateInit-like; an empty candidate marks end of candidates). */
export const IceCandidateData = z.object({
  candidate: z.string(),
  sdpMid: z.string().nullable().optional(),
  sdpMLineIndex: z.number().int().nonnegative().nullable().optional(),
});
export type IceCandidateData = z.infer<typeof IceCandidateData>;

/** `data` of an error message. */
export const ErrorData = z.object({
  code: VoiceErrorCode,
  message: z.string(),
});
export type ErrorData = z.infer<typeof ErrorData>;

/** Pins an agent build. Value types are not shown; reference-target choice: strings. */
export const AgentVersionOverride = z.object({
  artifactVersion: z.string(),
  lambdaDeploymentVersion: z.string(),
});
export type AgentVersionOverride = z.infer<typeof AgentVersionOverride>;

/**
 * First-stage parse of any signaling frame: a message failing this is answered INVALID_MESSAGE.
 * `sessionId` is required on every message and is the empty string when creating a new session.
 */
export const SignalingEnvelope = z.object({
  type: SignalingType,
  sessionId: z.string(),
});
export type SignalingEnvelope = z.infer<typeof SignalingEnvelope>;

/**
 * A signaling message with every documented field. `authToken` is optional here because an offer without it must be
 * answered UNAUTHORIZED `Auth token required`, not INVALID_MESSAGE; `mode` defaults to end-to-end.
 */
export const SignalingMessage = z.object({
  type: SignalingType,
  sessionId: z.string(),
  data: z.union([SdpData, IceCandidateData, ErrorData]).optional(),
  authToken: z.string().optional(),
  mode: VoiceMode.default(DEFAULT_VOICE_MODE),
  callSid: z.string().optional(),
  caller: z.string().optional(),
  callee: z.string().optional(),
  accountId: z.string().optional(),
  projectId: z.string().optional(),
  variantId: z.string().optional(),
  agentVersionOverride: AgentVersionOverride.optional(),
});
export type SignalingMessage = z.infer<typeof SignalingMessage>;

/** A client offer as the contract requires it: SDP data and a non-empty authToken (required on every offer). */
export const OfferMessage = SignalingMessage.extend({
  type: z.literal('offer'),
  data: SdpData.extend({ type: z.literal('offer') }),
  authToken: z.string().min(1),
});
export type OfferMessage = z.infer<typeof OfferMessage>;

/** The server's answer: SDP data and the assigned, non-empty sessionId the client uses on every later message. */
export const AnswerMessage = z.object({
  type: z.literal('answer'),
  sessionId: z.string().min(1),
  data: SdpData.extend({ type: z.literal('answer') }),
});
export type AnswerMessage = z.infer<typeof AnswerMessage>;

/** An ice-candidate message, sent by both sides until connected. */
export const IceCandidateMessage = z.object({
  type: z.literal('ice-candidate'),
  sessionId: z.string(),
  data: IceCandidateData,
});
export type IceCandidateMessage = z.infer<typeof IceCandidateMessage>;

/** An error message from the server. `sessionId` is empty when no session was assigned yet (reference-target choice). */
export const ErrorMessage = z.object({
  type: z.literal('error'),
  sessionId: z.string(),
  data: ErrorData,
});
export type ErrorMessage = z.infer<typeof ErrorMessage>;

/** A close message: ends the session. `data` is not used. */
export const CloseMessage = z.object({
  type: z.literal('close'),
  sessionId: z.string(),
});
export type CloseMessage = z.infer<typeof CloseMessage>;

/** Any signaling message checked against the shape its type requires. */
export const TypedSignalingMessage = z.discriminatedUnion('type', [OfferMessage, AnswerMessage, IceCandidateMessage, ErrorMessage, CloseMessage]);
export type TypedSignalingMessage = z.infer<typeof TypedSignalingMessage>;

/** One entry of `iceServers`, shaped like RTCIceServer so it can be passed to a peer connection directly. */
export const IceServer = z.object({
  urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;

/** GET ice-servers response. */
export const IceServersResponse = z.object({
  iceServers: z.array(IceServer).min(1),
});
export type IceServersResponse = z.infer<typeof IceServersResponse>;

/** A `turns:` URL on port 443 (host may be a name, an IPv4 address or a bracketed IPv6 address). */
const TURNS_443 = /^turns:(\[[^\]]+\]|[^:?/[\]]+):443(\?.*)?$/;

/**
 * Whether an ice-servers response includes a `turns:` URL on port 443, as the document requires.
 *
 * @example
 * hasTurnsOn443({ iceServers: [{ urls: ['turns:turn.example.com:443?transport=tcp'] }] }) // true
 * hasTurnsOn443({ iceServers: [{ urls: 'stun:stun.example.com:3478' }] }) // false
 */
export function hasTurnsOn443(res: IceServersResponse): boolean {
  return res.iceServers.some((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]).some((u) => TURNS_443.test(u)));
}

/** Audio format of the WebRTC leg: Opus, 48 kHz, stereo. */
export const VoiceAudio = {
  codec: 'opus',
  mimeType: 'audio/opus',
  clockRate: 48000,
  channels: 2,
} as const;

/**
 * Packetisation the reference target uses: 20 ms Opus frames (960 samples per channel at 48 kHz), what browsers send by
 * default. Reference-target choice: the document gives the codec, rate and channels, not the frame duration.
 */
export const VoiceFrame = {
  ms: 20,
  samples: 960,
} as const;

/** Supported browsers and minimum versions. Informational only: nothing the gateway can be tested for. */
export const SupportedBrowsers = {
  chrome: '72',
  firefox: '60',
  safari: '14.1',
  edge: '79',
} as const;

/**
 * Voice gateway errors, sent as `{type: 'error', data: {code, message}}`. Every `code` is documented; the only
 * documented message is `Auth token required`, every other `text` is a reference-target choice (documented: false).
 */
export const VoiceErrors = defineErrors({
  AUTH_TOKEN_REQUIRED: { code: 'UNAUTHORIZED', text: 'Auth token required', documented: true },
  INVALID_AUTH_TOKEN: { code: 'UNAUTHORIZED', text: 'Invalid auth token', documented: false },
  INVALID_MODE: { code: 'INVALID_ARGUMENT', text: 'Invalid mode', documented: false },
  INVALID_FIELD: { code: 'INVALID_ARGUMENT', text: 'Invalid field value', documented: false },
  UNKNOWN_SESSION: { code: 'INVALID_ARGUMENT', text: 'Unknown sessionId', documented: false },
  INVALID_SDP: { code: 'INVALID_ARGUMENT', text: 'Offer SDP is malformed or has no Opus audio section', documented: false },
  INVALID_CANDIDATE: { code: 'INVALID_ARGUMENT', text: 'Invalid ICE candidate', documented: false },
  INVALID_MESSAGE: { code: 'INVALID_MESSAGE', text: 'Malformed or unsupported message', documented: false },
  HANDLER_ERROR: { code: 'HANDLER_ERROR', text: 'Error processing signaling message', documented: false },
  MEDIA_BRIDGE_FAILURE: { code: 'MEDIA_BRIDGE_FAILURE', text: 'Media connection could not be established', documented: false },
  AGENT_FAILURE: { code: 'AGENT_FAILURE', text: 'Error connecting to the agent', documented: false },
});

/**
 * ice-servers HTTP errors. Reference-target choice: the document gives Bearer auth but no status or text for a
 * missing or invalid token; the reference target answers 401 `Unauthorized`.
 */
export const IceServersErrors = defineErrors({
  UNAUTHORIZED: { status: 401, text: 'Unauthorized', documented: false },
});
