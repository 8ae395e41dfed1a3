import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each messaging behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const MessagingAudit = {
  credentials: [
    ...credentials(
      ['messaging.access-token.missing-headers', 'messaging.access-token.connector-token-not-found', 'messaging.access-token.validate-connector-failed'],
      ['POST /api/v1/access-token'],
    ),
    ...credentials(
      ['messaging.session.missing-access-token', 'messaging.session.missing-auth-headers', 'messaging.session.invalid-access-token'],
      ['POST /api/v1/sessions'],
    ),
    ...credentials(
      ['messaging.ws.auth-failed', 'messaging.ws.auth-failed-expired', 'messaging.ws.token-must-belong-to-session', 'messaging.ws.token-same-connector'],
      ['GET (WebSocket) /ws'],
    ),
  ],
  fields: [],
  events: [],
} satisfies SurfaceAudit;
