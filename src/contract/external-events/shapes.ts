import { z } from 'zod';
import { defineErrors } from '../rule.js';

/** Where the event id is found in the webhook request. */
export const EventIdLocation = z.enum(['headers', 'querystring', 'payload']);
export type EventIdLocation = z.infer<typeof EventIdLocation>;

/** A name or a dotted path (`booking.ref.id`): non-empty segments separated by dots. */
export const EVENT_ID_PATH_REGEX = /^[^.\s]+(\.[^.\s]+)*$/;

/** Webhook query: all four parameters are required. */
export const ExternalEventsQuery = z.object({
  event_id_location: EventIdLocation,
  event_id_path: z.string().regex(EVENT_ID_PATH_REGEX, 'event_id_path must be a name or a dotted path'),
  account_id: z.string().min(1),
  project_id: z.string().min(1),
});
export type ExternalEventsQuery = z.infer<typeof ExternalEventsQuery>;

/** Body content types the webhook accepts; the payload is stored as opaque data. */
export const ExternalEventsContentType = z.enum(['application/json', 'application/x-www-form-urlencoded', 'application/xml', 'text/plain']);
export type ExternalEventsContentType = z.infer<typeof ExternalEventsContentType>;

/** The accepted content types as a list. */
export const EXTERNAL_EVENTS_CONTENT_TYPES = ExternalEventsContentType.options;

/**
 * The webhook body per content type: an opaque payload the platform stores as sent (document 2). Its form per type
 * is the content type's own: any JSON, form fields, an XML document, text.
 */
export const ExternalEventsPayload = {
  'application/json': z.unknown().meta({ description: 'Any JSON payload, stored as opaque data.' }),
  'application/x-www-form-urlencoded': z.record(z.string(), z.string()).meta({ description: 'Form fields, stored as opaque data.' }),
  'application/xml': z.string().meta({ description: 'An XML document, stored as opaque data.' }),
  'text/plain': z.string().meta({ description: 'Text, stored as opaque data.' }),
} as const satisfies Record<ExternalEventsContentType, z.ZodType>;

/** Success status of the webhook: the event is queued. */
export const EXTERNAL_EVENTS_SUCCESS_STATUS = 201;

/**
 * Success body of the webhook. The document does not show one: this shape is the reference
 * target's choice, and the suite only records what a real target sends.
 */
export const ExternalEventsQueuedResponse = z.object({
  status: z.literal('queued'),
  event_id: z.string(),
});
export type ExternalEventsQueuedResponse = z.infer<typeof ExternalEventsQueuedResponse>;

/** Webhook error body. */
export const ExternalEventsErrorBody = z.object({ error_message: z.string() });
export type ExternalEventsErrorBody = z.infer<typeof ExternalEventsErrorBody>;

/**
 * Reads a name or a dotted path out of a parsed payload or query object; `undefined` when any step is missing.
 *
 * @example
 * readDottedPath({ booking: { ref: 'B-1' } }, 'booking.ref'); // 'B-1'
 */
export function readDottedPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const segment of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[segment];
  }
  return cur;
}

/** Webhook credential header (a dedicated external-events key), exactly as the Authentication table writes it. */
export const ExternalEventsHeaders = {
  apiKey: 'X-Api-Key',
} as const;

/** The statuses document 2's Errors table gives the webhook, with their meaning, verbatim. */
export const EXTERNAL_EVENTS_ERROR_STATUSES = {
  400: 'Event id not found or invalid.',
  401: 'Missing or invalid key.',
  500: 'Transient processing error.',
} as const;

/**
 * Webhook error catalogue. Statuses 400, 401 and 500 are documented with their meaning; the
 * `error_message` texts, the 400 for a missing query parameter and the 415 for an unsupported
 * content type are the reference target's choice.
 */
export const ExternalEventsErrors = defineErrors({
  EVENT_ID_NOT_FOUND: { status: 400, text: 'Event id not found', documented: false },
  EVENT_ID_INVALID: { status: 400, text: 'Event id invalid', documented: false },
  MISSING_QUERY_PARAMETER: { status: 400, text: 'event_id_location, event_id_path, account_id and project_id are required', documented: false },
  UNSUPPORTED_CONTENT_TYPE: { status: 415, text: 'Unsupported content type', documented: false },
  MISSING_KEY: { status: 401, text: 'Missing API key', documented: false },
  INVALID_KEY: { status: 401, text: 'Invalid API key', documented: false },
  TRANSIENT: { status: 500, text: 'Transient processing error', documented: false },
  /** Reference-target choice: the account_id and project_id of the query name no project it serves. */
  UNKNOWN_PROJECT: { status: 400, text: 'Unknown account or project', documented: false },
});
