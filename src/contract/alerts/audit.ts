import { by, credentials, fields, type SurfaceAudit } from '../audit.js';

/** Every documented alert operation (document 3, Endpoints), as `METHOD path`. */
export const AlertOperations = ['GET /v1/alert-rules', 'POST /v1/alert-rules', 'GET /v1/alerts'] as const;
export type AlertOperation = (typeof AlertOperations)[number];

/** The key rules checked on every alert operation, a case per operation. */
export const AlertKeyChecks = credentials(['alerts.auth.missing-key-401', 'alerts.auth.invalid-key-401'], AlertOperations);

/** Where each alert behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const AlertsAudit = {
  credentials: [
    ...AlertKeyChecks,
    ...credentials(['alerts.auth.x-api-key-header'], ['GET /v1/alert-rules']),
    ...credentials(['alerts.auth.account-scoped'], ['GET /v1/alert-rules']),
  ],
  fields: [
    ...fields('POST /v1/alert-rules', {
      name: by('alerts.rules.list-fields'),
      project_id: by('alerts.list.filter-project-id'),
      metric: by('alerts.list.filter-metric'),
      operator: by('alerts.rules.list-fields'),
      threshold_value: by('alerts.metric.gte-threshold'),
      window_duration: by('alerts.rules.list-fields'),
      enabled: by('alerts.list.filter-enabled'),
    }),
    ...fields('GET /v1/alert-rules', {
      enabled: by('alerts.list.filter-enabled'),
      metric: by('alerts.list.filter-metric'),
      project_id: by('alerts.list.filter-project-id'),
      state: by('alerts.list.filter-state'),
    }),
  ],
  events: [],
} satisfies SurfaceAudit;
