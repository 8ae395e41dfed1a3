import { by, oneOperation } from '../audit.js';

/** Where each concurrency behaviour that crosses operations is shown (see `src/contract/audit.ts`); one documented operation. */
export const ConcurrencyAudit = oneOperation('GET /v1/{account_id}/{project_id}/conversations/concurrency', ['concurrency.auth.analytics-permission'], {
  start_time: by('concurrency.window.start-rounded-down'),
  end_time: by('concurrency.window.end-rounded-up'),
  client_env: by('concurrency.filter.client-env-default-live'),
  variant_id: by('concurrency.filter.variant'),
  variant_name: by('concurrency.filter.variant'),
  language: by('concurrency.filter.language-phone'),
  phone_number: by('concurrency.filter.language-phone'),
  slice_by: by('concurrency.slice-by.variant-works'),
});
