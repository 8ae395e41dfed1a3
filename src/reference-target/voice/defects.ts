import { defineDefects } from '../defect.js';

/**
 * Defects of the browser voice gateway. Each is a regression a real gateway could ship, and each breaks exactly the
 * rules listed: the werift client of the suite tolerates the others (a recvonly or mono answer still carries packets to
 * it), so the SDP-level rules are what catch them, as a browser would.
 */
export const VoiceDefects = defineDefects({
  'voice-answer-without-session-id': {
    surface: 'voice',
    breaks: ['voice.signaling.answer-session-id'],
    description: 'The answer carries an empty sessionId; the gateway quietly maps empty ids to the socket’s last session.',
  },
  'voice-recvonly-answer': {
    surface: 'voice',
    breaks: ['voice.audio.bidirectional'],
    description: 'The answer’s audio section is recvonly (werift’s default): packets still go out, but a browser plays nothing.',
  },
  'voice-echo-returns-silence': {
    surface: 'voice',
    breaks: ['voice.audio.bidirectional'],
    description: 'Echo mode sends a silence packet back for every packet the caller sends.',
  },
  'voice-offer-without-token-accepted': {
    surface: 'voice',
    breaks: ['voice.errors.auth-token-required'],
    description: 'An offer without authToken is answered and the call set up.',
  },
  'voice-token-checked-once': {
    surface: 'voice',
    breaks: ['voice.auth.token-on-every-offer'],
    description: 'Only the first offer on a socket has its token checked; later offers on it are let through with any token.',
  },
  'voice-close-ignored': {
    surface: 'voice',
    breaks: ['voice.signaling.close-ends-session'],
    description: 'A close message is accepted but the session and its media keep running.',
  },
  'voice-unknown-mode-accepted': {
    surface: 'voice',
    breaks: ['voice.signaling.mode-unknown'],
    description: 'An unknown mode falls back to end-to-end instead of being refused with INVALID_ARGUMENT.',
  },
  'voice-default-mode-echo': {
    surface: 'voice',
    breaks: ['voice.signaling.mode-default'],
    description: 'An offer without mode runs in echo mode instead of end-to-end.',
  },
  'voice-no-server-candidates': {
    surface: 'voice',
    breaks: ['voice.signaling.ice-both-ways'],
    description: 'The gateway never trickles its ICE candidates (the call still connects through peer-reflexive candidates).',
  },
  'voice-candidate-index-misspelt': {
    surface: 'voice',
    breaks: ['voice.signaling.ice-both-ways'],
    description: "The gateway's ice-candidate data carries sdpMlineIndex instead of the documented sdpMLineIndex.",
  },
  'voice-error-without-message': {
    surface: 'voice',
    breaks: ['voice.signaling.error-shape', 'voice.errors.auth-token-required'],
    description: 'Error messages carry data {code} without message.',
  },
  'voice-mono-opus-answer': {
    surface: 'voice',
    breaks: ['voice.audio.opus-48k-stereo'],
    description: 'The answer announces opus/48000 without the channel count, which SDP reads as mono.',
  },
  'voice-drops-caller-fields': {
    surface: 'voice',
    breaks: ['voice.signaling.optional-fields'],
    description: 'caller and callee of the offer are not kept on the call’s conversation record.',
  },
  'voice-variant-default': {
    surface: 'voice',
    breaks: ['voice.signaling.optional-fields'],
    description: "The offer's variantId is ignored: every call is routed to the project's default variant.",
  },
  'voice-call-sid-snake-case': {
    surface: 'voice',
    breaks: ['voice.signaling.call-sid-camel-case'],
    description: 'The gateway reads call_sid (the outbound REST spelling) instead of callSid.',
  },
  'voice-static-turn-credentials': {
    surface: 'voice',
    breaks: ['voice.ice-servers.fresh-credentials'],
    description: 'ice-servers hands out the same TURN username and credential on every request.',
  },
  'voice-turns-not-on-443': {
    surface: 'voice',
    breaks: ['voice.ice-servers.turns-443'],
    description: 'The turns: URL names port 5349 instead of 443.',
  },
});
