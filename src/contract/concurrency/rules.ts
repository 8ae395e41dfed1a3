import { defineRules } from '../rule.js';

const doc = 2 as const;
const surface = 'concurrency' as const;

const EP = 'Endpoints / Concurrency';
const RES = 'Resources / Concurrency interval';

/** Every rule of the Concurrency API (document 2), one sentence each. */
export const ConcurrencyRules = defineRules({
  'concurrency.path.v1': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'The concurrency series is served at /v1/{account_id}/{project_id}/conversations/concurrency, with slug or prefixed ids.',
  },
  'concurrency.response.fields': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'A concurrency response carries account_id, project_id and intervals, each interval with time and an integer max_concurrent_conversations.',
  },
  'concurrency.window.five-minute-marks': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'Every interval time is a UTC ISO 8601 timestamp on a 5-minute mark, the lower bound of its window.',
  },
  'concurrency.window.start-rounded-down': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement:
      'start_time is rounded down to the 5-minute mark: no interval is earlier than the rounded start and the window containing start_time is covered.',
  },
  'concurrency.window.end-rounded-up': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'end_time is rounded up to the 5-minute mark: the window containing end_time is covered and no interval starts at or after the rounded end.',
  },
  'concurrency.window.max-one-week': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'start_time and end_time more than one week apart are answered 400 with error_message.',
  },
  'concurrency.window.one-week-accepted': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'start_time and end_time less than one week apart are accepted.',
  },
  'concurrency.window.span-boundary': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement:
      'Whether the one-week span is measured before or after rounding, and so whether exactly one week off the 5-minute marks is accepted, is not shown.',
  },
  'concurrency.window.ascending': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'intervals are in ascending order of time.',
  },
  'concurrency.window.empty-windows': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: RES,
    statement: 'Whether windows with no conversations are listed with 0 or left out is not shown.',
  },
  'concurrency.interval.peak-after-filters': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'max_concurrent_conversations is the peak number of simultaneously active conversations in the window among those matching the filters.',
  },
  'concurrency.params.start-end-required': {
    doc,
    surface,
    kind: 'status',
    section: EP,
    statement: 'A request without start_time or without end_time is answered 400 with error_message.',
  },
  'concurrency.params.bad-time-range-400': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'A bad time range (a time that is not ISO 8601, or end_time before start_time) is answered 400 with error_message.',
  },
  'concurrency.filter.client-env-default-live': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'Without client_env the series counts only live conversations, and each of sandbox, pre-release and live is accepted.',
  },
  'concurrency.filter.variant-xor': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'At most one of variant_id and variant_name is accepted; a request with both is answered 400.',
  },
  'concurrency.filter.variant': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'variant_id or variant_name restricts the counts to conversations of that variant.',
  },
  'concurrency.filter.language-phone': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'language and phone_number are accepted as filters and restrict the counts to matching conversations.',
  },
  'concurrency.slice-by.variant-works': {
    doc,
    surface,
    kind: 'enum',
    section: EP,
    statement: 'slice_by=variant is answered 200 with intervals carrying variant_id and variant_name.',
  },
  'concurrency.slice-by.language-501': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'slice_by=language is answered 501 with error_message.',
  },
  'concurrency.slice-by.phone-number-501': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'slice_by=phone_number is answered 501 with error_message.',
  },
  'concurrency.errors.error-message-body': {
    doc,
    surface,
    kind: 'field',
    section: 'Errors',
    statement: 'Every concurrency error body carries error_message, a string.',
  },
  'concurrency.errors.401-403-key': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'A request with a missing, invalid or unauthorised x-api-key is answered 401 or 403.',
  },
  'concurrency.errors.404-not-found': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'A request for an account or project that does not exist is answered 404.',
  },
  'concurrency.errors.500-internal': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'An internal error is answered 500 with error_message.',
  },
  'concurrency.auth.analytics-permission': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: 'A key not authorised for conversation and analytics data of the account and project is answered 401 or 403.',
  },
  'concurrency.errors.other-parameters': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'Which other parameter violations (an unknown slice_by, a bad client_env) are answered 400 is not shown.',
  },
});
