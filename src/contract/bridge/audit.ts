import { credentials, type SurfaceAudit } from '../audit.js';

/** Where each bridge behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const BridgeAudit = {
  credentials: credentials(['bridge.auth.external-events-key'], ['POST /internal/v1/agentic-dial/bridge-ended']),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
