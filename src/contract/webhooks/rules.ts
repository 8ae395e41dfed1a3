import { defineRules } from '../rule.js';

const doc = 3 as const;
const surface = 'webhooks' as const;

/** Every rule of webhook endpoints and deliveries (document 3), one sentence each. */
export const WebhooksRules = defineRules({
  'webhooks.auth.x-api-key-header': {
    doc,
    surface,
    kind: 'field',
    section: 'Authentication',
    statement: 'POST /v1/webhook-endpoints with a valid API key in the x-api-key header is answered 2xx.',
  },
  'webhooks.auth.missing-key-401': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'A webhook endpoint request without the x-api-key header answers 401.',
  },
  'webhooks.auth.invalid-key-401': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'A webhook endpoint request with an x-api-key the operator did not issue answers 401.',
  },
  'webhooks.endpoint.create-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources and their fields',
    statement: 'POST /v1/webhook-endpoints accepts name (string), url (string) and event_types (array).',
  },
  'webhooks.endpoint.event-types-enum': {
    doc,
    surface,
    kind: 'enum',
    section: 'Resources and their fields',
    statement: 'event_types entries are alerts.triggered and alerts.resolved, each accepted, and any other value is rejected.',
  },
  'webhooks.endpoint.signing-secret-once': {
    doc,
    surface,
    kind: 'field',
    section: 'Authentication',
    statement: 'The create response carries signing_secret (string), and it is returned only in that response.',
  },
  'webhooks.endpoint.response-fields': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Resources and their fields',
    statement: 'Fields of the webhook endpoint response other than signing_secret are not shown.',
  },
  'webhooks.endpoint.other-paths': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Endpoints',
    statement: 'Paths for webhook endpoint list, update, delete and the rotate-signing-secret operation are not shown.',
  },
  'webhooks.endpoint.max-count': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement: 'The maximum number of webhook endpoints, beyond which creation answers 409, is not shown.',
  },
  'webhooks.delivery.signed': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement: "A webhook delivery is an HTTP POST that carries a signature made with the endpoint's signing_secret.",
  },
  'webhooks.delivery.subscribed-only': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement: 'A delivery goes only to registered endpoints subscribed to its event type, and an endpoint not subscribed receives nothing.',
  },
  'webhooks.delivery.headers': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'Delivery headers are not shown.',
  },
  'webhooks.delivery.retries': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'The delivery retry policy is not shown.',
  },
  'webhooks.delivery.signature-scheme': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement:
      'The signature scheme is not shown; whether a delivery verifies under Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature v1 ' +
      'HMAC-SHA256) is observed.',
  },
  'webhooks.event.triggered': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement: 'alerts.triggered is delivered when an alert rule transitions into a firing state.',
  },
  'webhooks.event.resolved': {
    doc,
    surface,
    kind: 'event',
    section: 'Events',
    statement: 'alerts.resolved is delivered when a firing alert transitions back to ok.',
  },
  'webhooks.payload.triggered-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Resources and their fields',
    statement:
      'The alerts.triggered body carries event_type and alert with id, name, project_id, metric, operator, threshold_value, current_value, previous_state ' +
      'and triggered_at (ISO 8601).',
  },
  'webhooks.payload.resolved': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Events',
    statement: 'The alerts.resolved body is not shown.',
  },
});
