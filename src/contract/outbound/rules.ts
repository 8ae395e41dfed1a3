import { defineRules } from '../rule.js';

const doc = 2 as const;
const surface = 'outbound' as const;

const RES = 'Resources / Outbound call';
const ST = 'States and transitions';

/** Every rule of outbound calling and status polling (document 2), one sentence each. */
export const OutboundRules = defineRules({
  'outbound.path.v1': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'Calls are started with POST /v1/outbound-calling and polled with GET /v1/outbound-calling/{call_sid}/status.',
  },
  'outbound.trigger.e164-destination': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'The trigger request takes the destination as an E.164 phone number, and a destination that is not E.164 is not accepted.',
  },
  'outbound.trigger.optional-metadata-encryption': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'A trigger request without metadata and without encryption is accepted, and one with either is accepted too.',
  },
  'outbound.trigger.call-sid-prefix': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'The trigger response carries call_sid, a string starting with OUT-.',
  },
  'outbound.trigger.field-names': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: RES,
    statement: 'The field names of the trigger request and of the status response are not shown.',
  },
  'outbound.status.enum': {
    doc,
    surface,
    kind: 'enum',
    section: ST,
    statement: 'A polled status is one of queued, calling, success, failure.',
  },
  'outbound.status.queued': {
    doc,
    surface,
    kind: 'enum',
    section: ST,
    statement: 'queued means the call is queued for processing and has not been placed yet.',
  },
  'outbound.status.calling': {
    doc,
    surface,
    kind: 'enum',
    section: ST,
    statement: 'calling means the call is being placed.',
  },
  'outbound.status.success': {
    doc,
    surface,
    kind: 'enum',
    section: ST,
    statement: 'success means the call connected and completed.',
  },
  'outbound.status.failure': {
    doc,
    surface,
    kind: 'enum',
    section: ST,
    statement: 'failure means the call failed to connect or was not answered.',
  },
  'outbound.transition.connected-success': {
    doc,
    surface,
    kind: 'transition',
    section: ST,
    statement: 'A placed call that connects and completes moves to success.',
  },
  'outbound.transition.not-connected-failure': {
    doc,
    surface,
    kind: 'transition',
    section: ST,
    statement: 'A placed call that fails to connect or is not answered moves to failure.',
  },
  'outbound.transition.terminal-final': {
    doc,
    surface,
    kind: 'transition',
    section: ST,
    statement: 'Once a call is success or failure, later polls never show another status until the status is removed.',
  },
  'outbound.transition.forward-only': {
    doc,
    surface,
    kind: 'transition',
    section: ST,
    statement: 'Successive polls never go backwards in the order queued, calling, then success or failure.',
  },
  'outbound.transition.initial-and-queue-moves': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: ST,
    statement: 'The status right after a trigger and the moves between queued and calling are not shown.',
  },
  'outbound.status.retained-about-2h': {
    doc,
    surface,
    kind: 'limit',
    section: 'Limits',
    statement: 'A success or failure status stays retrievable for about 2 hours after the call ends.',
  },
  'outbound.status.404-after-retention': {
    doc,
    surface,
    kind: 'transition',
    section: ST,
    statement: 'About 2 hours after the call ends the status is removed and the status endpoint answers 404.',
  },
  'outbound.status.404-unknown-call': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'Polling a call_sid that was never issued is answered 404.',
  },
  'outbound.auth.service-token': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: 'Outbound requests without an X-Service-Auth-Token header, or with a token not issued for the project, are rejected.',
  },
  'outbound.errors.rejections-not-success': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement:
      'Whatever their code, a trigger with a destination that is not E.164, without the service token, or without a body is an error: it is not answered ' +
      'with success (2xx).',
  },
  'outbound.errors.other-codes': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'Outbound error codes other than 404 (a bad destination, a missing or invalid token) and the outbound error body are not shown.',
  },
  'outbound.limits.rate': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement: 'Outbound rate limits depend on account configuration and their numbers and status are not shown.',
  },
});
