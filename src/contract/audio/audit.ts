import { by, oneOperation } from '../audit.js';

/** Where each audio behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const AudioAudit = oneOperation('GET /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio', ['audio.auth.x-api-key-required'], {
  direction: by('audio.direction.user'),
  redacted: by('audio.redaction.pii-true-redacted'),
});
