import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each voice behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const VoiceAudit = {
  credentials: [
    ...credentials(['voice.auth.token-on-every-offer'], ['offer on GET (WebSocket) /api/v1/webrtc/signal']),
    ...credentials(['voice.ice-servers.auth-required'], ['GET /api/v1/ice-servers']),
  ],
  fields: [],
  events: [],
} satisfies SurfaceAudit;
