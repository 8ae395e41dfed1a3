import { by, oneOperation, unobservable } from '../audit.js';

const BINDING = 'where an accepted event shows in its project is not shown (external-events.payload.binding records it)';

/** Where each external-events behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const ExternalEventsAudit = oneOperation('POST /v1/external-events/webhook', ['external-events.auth.dedicated-key'], {
  event_id_location: by('external-events.location.headers'),
  event_id_path: by('external-events.event-id-path.dotted'),
  account_id: unobservable(BINDING),
  project_id: unobservable(BINDING),
});
