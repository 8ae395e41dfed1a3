import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each webhook behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const WebhooksAudit = {
  credentials: credentials(['webhooks.auth.missing-key-401', 'webhooks.auth.invalid-key-401'], ['POST /v1/webhook-endpoints']),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
