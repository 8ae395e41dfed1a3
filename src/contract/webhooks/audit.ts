import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';
import { AlertTriggeredPayload } from './shapes.js';

/** Where each webhook behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const WebhooksAudit = {
  credentials: credentials(
    ['webhooks.auth.x-api-key-header', 'webhooks.auth.missing-key-401', 'webhooks.auth.invalid-key-401'],
    ['POST /v1/webhook-endpoints'],
  ),
  fields: [
    ...fields('POST /v1/webhook-endpoints', {
      name: unobservable('the endpoint response fields other than signing_secret are not shown, and no operation lists endpoints'),
      url: by('webhooks.delivery.signed'),
      event_types: by('webhooks.delivery.subscribed-only'),
    }),
  ],
  eventPaths: ['live', 'retry'],
  events: ['event_type', ...Object.keys(AlertTriggeredPayload.shape.alert.shape).map((f) => `alert.${f}`)].map((field) => ({
    event: 'alerts.triggered',
    field,
    paths: {
      live: by('webhooks.payload.triggered-fields'),
      retry: unobservable('the retry policy is not shown (webhooks.delivery.retries records whether a failed delivery is retried)'),
    },
  })),
} satisfies SurfaceAudit;
