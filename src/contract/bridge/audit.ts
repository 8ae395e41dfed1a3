import { by, credentials, fields, type SurfaceAudit } from '../audit.js';

/** Where each bridge behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const BridgeAudit = {
  credentials: credentials(['bridge.auth.external-events-key'], ['POST /internal/v1/agentic-dial/bridge-ended']),
  fields: [
    ...fields('POST /internal/v1/agentic-dial/bridge-ended', {
      conversation_id: by('bridge.effect.state-updated'),
      bridge_duration_seconds: by('bridge.effect.functions-receive-durations'),
      call_duration_seconds: by('bridge.effect.functions-receive-durations'),
    }),
  ],
  events: [],
} satisfies SurfaceAudit;
