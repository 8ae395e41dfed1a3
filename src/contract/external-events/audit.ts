import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each external-events behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const ExternalEventsAudit = {
  credentials: credentials(['external-events.auth.dedicated-key'], ['POST /v1/external-events/webhook']),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
