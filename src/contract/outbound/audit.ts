import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';

/** Every documented outbound operation (document 2, Outbound calling), as `METHOD path`. */
export const OutboundOperations = ['POST /v1/outbound-calling', 'GET /v1/outbound-calling/{call_sid}/status'] as const;
export type OutboundOperation = (typeof OutboundOperations)[number];

const CALL_DETAILS = 'the status poll is the only documented view of a call, and it shows none of the numbers, metadata or encryption';

/** Where each outbound behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const OutboundAudit = {
  credentials: credentials(['outbound.auth.service-token'], OutboundOperations),
  fields: [
    ...fields('POST /v1/outbound-calling', {
      to_number: by('outbound.trigger.e164-destination'),
      from_number: unobservable(CALL_DETAILS),
      metadata: unobservable(CALL_DETAILS),
      encryption: unobservable(CALL_DETAILS),
    }),
  ],
  events: [],
} satisfies SurfaceAudit;
