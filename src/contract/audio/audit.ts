import { by, credentials, fields, type SurfaceAudit } from '../audit.js';

/** Where each audio behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const AudioAudit = {
  credentials: credentials(['audio.auth.x-api-key-required'], ['GET /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio']),
  fields: [
    ...fields('GET /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio', {
      direction: by('audio.direction.user'),
      redacted: by('audio.redaction.pii-true-redacted'),
    }),
  ],
  events: [],
} satisfies SurfaceAudit;
