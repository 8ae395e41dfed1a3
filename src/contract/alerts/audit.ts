import { credentials, type SurfaceAudit } from '../audit.js';

/** Every documented alert operation (document 3, Endpoints), as `METHOD path`. */
export const AlertOperations = ['GET /v1/alert-rules', 'POST /v1/alert-rules', 'GET /v1/alerts'] as const;
export type AlertOperation = (typeof AlertOperations)[number];

/** Where each alert behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const AlertsAudit = {
  credentials: credentials(['alerts.auth.missing-key-401', 'alerts.auth.invalid-key-401'], AlertOperations),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
