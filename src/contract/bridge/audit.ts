import { by, oneOperation } from '../audit.js';

/** Where each bridge behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const BridgeAudit = oneOperation('POST /internal/v1/agentic-dial/bridge-ended', ['bridge.auth.external-events-key'], {
  conversation_id: by('bridge.effect.state-updated'),
  bridge_duration_seconds: by('bridge.effect.functions-receive-durations'),
  call_duration_seconds: by('bridge.effect.functions-receive-durations'),
});
