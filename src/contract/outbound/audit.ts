import { credentials, type SurfaceAudit } from '../audit.js';

/** Every documented outbound operation (document 2, Outbound calling), as `METHOD path`. */
export const OutboundOperations = ['POST /v1/outbound-calling', 'GET /v1/outbound-calling/{call_sid}/status'] as const;
export type OutboundOperation = (typeof OutboundOperations)[number];

/** Where each outbound behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const OutboundAudit = {
  credentials: credentials(['outbound.auth.service-token'], OutboundOperations),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
