import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each concurrency behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const ConcurrencyAudit = {
  credentials: credentials(['concurrency.auth.analytics-permission'], ['GET /v1/{account_id}/{project_id}/conversations/concurrency']),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
