import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each conversations behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const ConversationsAudit = {
  credentials: credentials(
    ['conversations.auth.x-api-key-required', 'conversations.auth.project-region-scoped'],
    ['GET /v3/{account_id}/{project_id}/conversations'],
  ),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
