import { by, credentials, type SurfaceAudit } from '../audit.js';

/** The server's signaling messages and the case that shows each documented field (one socket per session: live only). */
const SERVER_MESSAGES = {
  answer: { sessionId: 'voice.signaling.answer-session-id', 'data.type': 'voice.signaling.answer-session-id', 'data.sdp': 'voice.signaling.answer-session-id' },
  'ice-candidate': {
    sessionId: 'voice.signaling.ice-both-ways',
    'data.candidate': 'voice.signaling.ice-both-ways',
    'data.sdpMid': 'voice.signaling.ice-both-ways',
    'data.sdpMLineIndex': 'voice.signaling.ice-both-ways',
  },
  error: { sessionId: 'voice.signaling.required-fields', 'data.code': 'voice.signaling.error-shape', 'data.message': 'voice.signaling.error-shape' },
} as const;

/** Where each voice behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const VoiceAudit = {
  credentials: [
    ...credentials(['voice.auth.token-on-every-offer'], ['offer on GET (WebSocket) /api/v1/webrtc/signal']),
    ...credentials(['voice.ice-servers.auth-required'], ['GET /api/v1/ice-servers']),
  ],
  fields: [],
  // A signaling socket carries one session and nothing is replayed: its messages travel live only.
  eventPaths: ['live'],
  events: Object.entries(SERVER_MESSAGES).flatMap(([event, byField]) =>
    Object.entries(byField).map(([field, rule]) => ({ event: `${event} (signaling)`, field, paths: { live: by(rule) } })),
  ),
} satisfies SurfaceAudit;
