import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  EXTERNAL_EVENTS_SUCCESS_STATUS,
  ExternalEventsErrors,
  ExternalEventsHeaders,
  ExternalEventsQuery,
  type ExternalEventsQueuedResponse,
} from '../../contract/external-events/shapes.js';
import type { ErrorEntry } from '../../contract/rule.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import type { RecordsStore } from '../records/store.js';
import type { RetainedLog } from '../retention.js';
import { locateEventId, mediaType } from './event-id.js';

/** One event the webhook queued: its payload kept exactly as sent. */
export interface StoredEvent {
  readonly content_type: string;
  readonly body: string;
  readonly received_at: string;
}

/** An event id bound to a conversation (control surface), with the events received for it. */
export interface EventBinding {
  readonly conversationId: string;
  readonly projectKey: string;
  /** How many more deliveries answer 500 (a transient processing error) before one is queued. */
  transientFailures: number;
  /** Each delivery is finished when it arrives: kept within the target's retention. */
  readonly events: RetainedLog<StoredEvent>;
}

/** X-Api-Key with the dedicated external-events key (also used by bridge-ended); any header case. */
export function externalEventsKeyOk(
  ctx: TargetContext,
  req: FastifyRequest,
  reply: FastifyReply,
  errors: { MISSING_KEY: ErrorEntry; INVALID_KEY: ErrorEntry },
): boolean {
  const key = req.headers[ExternalEventsHeaders.apiKey.toLowerCase()];
  if (key === undefined || key === '') {
    sendError(reply, errors.MISSING_KEY);
    return false;
  }
  if (key !== ctx.credentials.external_events_key) {
    sendError(reply, errors.INVALID_KEY);
    return false;
  }
  return true;
}

function webhook(ctx: TargetContext, store: RecordsStore, bindings: Map<string, EventBinding>) {
  return (req: FastifyRequest<{ Querystring: Record<string, unknown>; Body: string | undefined }>, reply: FastifyReply) => {
    if (!externalEventsKeyOk(ctx, req, reply, ExternalEventsErrors)) return reply;
    const q = ExternalEventsQuery.safeParse(req.query);
    if (!q.success) return sendError(reply, ExternalEventsErrors.MISSING_QUERY_PARAMETER);
    const project = store.project(q.data.account_id, q.data.project_id);
    if (!project) return sendError(reply, ExternalEventsErrors.UNKNOWN_PROJECT);
    const d = ctx.defects;
    // No body at all is an empty text body: the event id is then in the headers or the query string.
    const header = req.headers['content-type'] ?? (req.body ? undefined : 'text/plain');
    const contentType = mediaType(header);
    if (!contentType || (contentType === 'application/x-www-form-urlencoded' && d.has('external-events-form-rejected'))) {
      return sendError(reply, ExternalEventsErrors.UNSUPPORTED_CONTENT_TYPE);
    }
    const body = { contentType, text: req.body ?? '' };
    const found = locateEventId(
      q.data.event_id_location,
      q.data.event_id_path,
      { headers: req.headers, query: req.query, body },
      d.has('external-events-dotted-path-literal'),
    );
    if (found === undefined) return sendError(reply, ExternalEventsErrors.EVENT_ID_NOT_FOUND);
    if (typeof found !== 'string') return sendError(reply, ExternalEventsErrors.EVENT_ID_INVALID, 'not a string or number');
    const binding = bindings.get(found);
    if ((!binding || binding.projectKey !== project.key) && !d.has('external-events-unbound-accepted')) {
      return sendError(reply, ExternalEventsErrors.EVENT_ID_INVALID, 'bound to no conversation of this project');
    }
    if (binding && binding.transientFailures > 0) {
      binding.transientFailures--;
      return sendError(reply, ExternalEventsErrors.TRANSIENT);
    }
    binding?.events.push({ content_type: contentType, body: body.text, received_at: new Date(ctx.clock.now()).toISOString() });
    const out: ExternalEventsQueuedResponse = { status: 'queued', event_id: found };
    return reply.code(EXTERNAL_EVENTS_SUCCESS_STATUS).send(out);
  };
}

/**
 * Registers POST /v1/external-events/webhook in a scope of its own, where every body is read as
 * raw text (the payload is stored opaque) and the content type is judged by the handler.
 */
export function registerExternalEvents(app: FastifyInstance, ctx: TargetContext, store: RecordsStore, bindings: Map<string, EventBinding>): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => done(null, text));
    scope.post('/v1/external-events/webhook', webhook(ctx, store, bindings));
  });
}
