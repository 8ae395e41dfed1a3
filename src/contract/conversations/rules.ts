import { defineRules } from '../rule.js';

const doc = 2 as const;
const surface = 'conversations' as const;

const LIST = 'Endpoints / Conversations list';
const LIST_RULES = 'Endpoints / Conversations list rules';
const RECORD = 'Resources / Conversation record';

/** Every rule of the Conversations API v1/v2/v3 (document 2), one sentence each. */
export const ConversationsRules = defineRules({
  // Record and turn shape
  'conversations.record.fields': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement:
      'Each v3 record carries id, account_id, project_id, variant_id, variant_name, environment, started_at, channel, from_number, to_number, in_progress, ' +
      'num_turns, total_duration, polyai_duration, handoff, handoff_reason, handoff_destination, num_silences, num_ood, metrics, state and turns with ' +
      'their documented types.',
  },
  'conversations.record.parts-within-whole': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement:
      'polyai_duration, the agent-handled portion of the call, never exceeds total_duration, both in seconds; num_silences and num_ood, counts of ' +
      'kinds of turn, never exceed num_turns.',
  },

  'conversations.record.environment-enum': {
    doc,
    surface,
    kind: 'enum',
    section: RECORD,
    statement: "A record's environment is one of live, sandbox, pre-release.",
  },
  'conversations.record.channel-set': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: RECORD,
    statement: 'channel is a string whose full set of values is not shown beyond the common VOICE-SIP, WEBCHAT and CHAT.',
  },
  'conversations.record.in-progress-state': {
    doc,
    surface,
    kind: 'transition',
    section: 'States and transitions',
    statement: 'in_progress is true on a record while its conversation is active and false once it has finished.',
  },
  'conversations.record.num-turns-matches': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'When turns is filled, num_turns equals the number of turns in it.',
  },
  'conversations.record.shows-what-chat-sent': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement:
      'A conversation held through the chat API (document 1) has a record that shows what chat sent and answered: the variant_id given on create, the ' +
      "initial message and each respond's message as the user_input of its turns in order, the agent's replies as their agent_response, and a handoff as " +
      'handoff, handoff_destination and handoff_reason.',
  },
  'conversations.record.counts-agree': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'When turns is filled, num_silences and num_ood count the turns whose is_silence and is_ood are true.',
  },
  'conversations.turn.fields': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement:
      'Each turn carries user_input, user_input_dtmf, user_input_datetime, barge_in, agent_response, agent_response_datetime, intents, entities, is_ood ' +
      'and is_silence with their documented types.',
  },
  'conversations.turn.ordered': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: "turns is ordered: each turn's timestamps are no earlier than the previous turn's.",
  },
  'conversations.turn.translation-fields': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'translated_user_input and english_agent_response appear on a turn, as strings, only when translation is enabled for the project.',
  },
  'conversations.turns.transcript-off-empty': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: "When the project's transcript setting is off, turns is an empty array while num_turns still gives the real number of turns.",
  },
  'conversations.metrics.builtin-value-types': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'When present, metrics.CALL_DURATION is a string duration and metrics.CALL_TURN is an array of timestamps.',
  },
  'conversations.metrics.response-metric-names': {
    doc,
    surface,
    kind: 'enum',
    section: RECORD,
    statement:
      'The per-project response metrics that can be switched on are CALL_IN_PROGRESS, CALL_COMPLETED, HANDOFF_TO and HANDOFF_REASON, and a switched-on one ' +
      'appears as a key of metrics.',
  },
  'conversations.metrics.empty-without-selection': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'With no response metric selected for the project, metrics is an empty object.',
  },
  'conversations.metrics.key-set': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: RECORD,
    statement: 'The full key set of metrics and of state, and the value types of the response metrics, are not shown.',
  },
  'conversations.state.all-variables': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'state is a key-value object holding the conversation variables set during the call, built-in keys included.',
  },
  'conversations.access.permissions': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Conversation data appears only when the key has conversations data permission and the project has metrics and transcript access enabled.',
  },
  'conversations.access.missing-permission-shape': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: LIST_RULES,
    statement: 'What the list answers when the key lacks conversations data permission (status, or records without data) is not shown.',
  },

  // Filters and defaults
  'conversations.filter.client-env-default-live': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'Without client_env the list returns only conversations whose environment is live.',
  },
  'conversations.filter.client-env-values': {
    doc,
    surface,
    kind: 'enum',
    section: LIST,
    statement: 'client_env accepts sandbox, pre-release and live, and each returns only records of that environment.',
  },
  'conversations.filter.in-progress-default-all': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'Without in_progress the list returns both active and finished conversations.',
  },
  'conversations.filter.in-progress-selects': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'in_progress=true returns only records with in_progress true and in_progress=false only records with in_progress false.',
  },
  'conversations.filter.time-range': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: "start_time and end_time bound the returned records' started_at, and an omitted bound leaves that side open.",
  },
  'conversations.filter.channel-repeatable': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'channel may be repeated, and the list then returns records whose channel is any of the given values.',
  },
  'conversations.filter.variant-id': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'variant_id returns only records of that variant.',
  },
  'conversations.filter.variant-name-encoded': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'variant_name with spaces encoded as %20 returns only records of the variant with that name.',
  },
  'conversations.filter.variant-id-xor-name': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'At most one of variant_id and variant_name may be sent; a request with both is not a valid request.',
  },
  'conversations.filter.turn-type-default-both': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'A transcript search without turn_type matches text on both the user and the agent side of turns.',
  },
  'conversations.filter.turn-type-values': {
    doc,
    surface,
    kind: 'enum',
    section: LIST,
    statement: 'In a transcript search, turn_type=user matches only user_input and turn_type=agent matches only agent_response.',
  },
  'conversations.filter.turn-type-transcript-only': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'turn_type applies to transcript search only.',
  },
  'conversations.filter.include-latency-default-false': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'Without include_latency (default false) turn latency is not filled.',
  },
  'conversations.filter.include-latency-fills': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'include_latency=true fills latency with a number on every returned turn.',
  },
  'conversations.filter.include-latency-empty-turns': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'include_latency=true does not fill a turns array that is empty because transcript visibility is off.',
  },
  'conversations.filter.streaming-flags': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: LIST,
    statement: 'The semantics of include_context_state and include_turn_metadata are not shown.',
  },

  // Retrieval modes
  'conversations.retrieval.one-mode': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'A request uses at most one retrieval mode: query_type and sample are exclusive.',
  },
  'conversations.retrieval.none-returns-all': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'With no retrieval mode the list returns all conversations that match the filters.',
  },
  'conversations.retrieval.query-required': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'query is required when query_type is set; query_type without query is not a valid request.',
  },
  'conversations.retrieval.sample-no-query': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'sample=random takes no query.',
  },
  'conversations.retrieval.time-range-required': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'start_time and end_time are required with a retrieval mode (query_type or sample) and optional otherwise.',
  },
  'conversations.retrieval.query-type-enum': {
    doc,
    surface,
    kind: 'enum',
    section: LIST,
    statement: 'query_type is transcript or semantic and sample is random, and each is accepted with its required parameters.',
  },
  'conversations.retrieval.transcript-matches': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'A transcript search returns only conversations whose transcript contains the query text.',
  },
  'conversations.retrieval.sample-subset': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'sample=random returns conversations drawn from those matching the filters and time range.',
  },
  'conversations.retrieval.match-semantics': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: LIST,
    statement: 'Transcript match rules (case, partial words), semantic ranking and the sample size are not shown.',
  },
  'conversations.errors.violations-not-success': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement:
      'Whatever their status, list requests that break a parameter rule (query_type with sample, query_type without query, both variant filters, turn_type ' +
      'outside transcript search, a retrieval mode without a time range, a bad enum value, a negative offset) are errors: none is answered with success ' +
      '(2xx).',
  },
  'conversations.errors.other-violations-status': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement:
      'The status and body for other list parameter violations (query_type with sample, query_type without query, both variant filters, turn_type outside ' +
      'transcript search, a retrieval mode without a time range, a bad enum value, a negative offset) are not shown.',
  },

  // Limit and offset
  'conversations.limit.default-and-range': {
    doc,
    surface,
    kind: 'limit',
    section: LIST,
    statement: 'limit follows one of the two documented readings for its default and range, and the target is reported with the reading it follows.',
    alternatives: ['v3 reference: default 1000, range 1 to 1000', 'narrative and v1: default 5, range 1 to 5000'],
  },
  'conversations.limit.page-size': {
    doc,
    surface,
    kind: 'limit',
    section: LIST,
    statement: 'A response never holds more records than the limit sent.',
  },
  'conversations.limit.out-of-range': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: LIST,
    statement: 'Whether a limit outside the range is rejected or clamped, and with which status, is not shown.',
  },
  'conversations.offset.default-zero': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement: 'Without offset the list starts at offset 0, the same first page as offset=0.',
  },
  'conversations.offset.next-offset-present': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'next_offset is an integer present when more results exist and absent on the last page.',
  },
  'conversations.offset.next-offset-as-offset': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Passing next_offset as offset with the same filters returns the next page.',
  },
  'conversations.offset.walk-complete': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Walking an unchanging data set by offset returns every matching record exactly once.',
  },

  // Cursor pagination and order
  'conversations.cursor.omit-first': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'A first request without cursor is answered with the first page and a cursor field.',
  },
  'conversations.cursor.pass-returned': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Passing the returned cursor on the next request returns the page that follows.',
  },
  'conversations.cursor.null-at-end': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'cursor is a string while more results exist and null on the last page.',
  },
  'conversations.cursor.filters-identical': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Walking with the returned cursor and all other filters kept identical returns only records that match those filters.',
  },
  'conversations.cursor.changed-filters': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: LIST_RULES,
    statement: 'What the list answers when a cursor is sent with filters different from the request that produced it is not shown.',
  },
  'conversations.cursor.malformed-400': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement: 'A malformed cursor is answered 400.',
  },
  'conversations.cursor.wins-over-offset': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'When both cursor and offset are sent, the cursor decides the page and the offset is ignored.',
  },
  'conversations.cursor.walk-complete': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Walking by cursor until it is null returns every matching record exactly once, none missing and none repeated.',
  },
  'conversations.order.ascending': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'Records are returned in ascending chronological order of started_at, within a page and across pages.',
  },

  // Versions and streaming
  'conversations.v3.empty-strings-not-null': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'v3 returns empty strings, never null, for empty text fields of records and turns.',
  },
  'conversations.v3.iso-timestamps': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'Every timestamp in a v3 response (started_at, turn datetimes, CALL_TURN entries) is ISO 8601.',
  },
  'conversations.v3.extra-turn-fields': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'v3 turns can carry latency, translated_user_input and english_agent_response, which v1 turns lack.',
  },
  'conversations.v2.same-schema': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'The v2 list response has the same schema as v3.',
  },
  'conversations.path.query-alike-across-versions': {
    doc,
    surface,
    kind: 'field',
    section: LIST,
    statement:
      'The list query parameters are documented once for v3, v2 and v1: the same query selects the same records on v2 and on v1 as on v3 (v1 has no cursor).',
  },
  'conversations.v1.descriptions': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'The v1 list response carries descriptions, an object whose conversations object describes the record keys.',
  },
  'conversations.v1.no-cursor': {
    doc,
    surface,
    kind: 'field',
    section: RECORD,
    statement: 'The v1 list response has no cursor field.',
  },
  'conversations.v1.whitelisting': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement:
      "On v1 with enable_whitelist true, records carry only the fields in the project's API config (typically id, started_at, account_id, project_id).",
  },
  'conversations.v1.available': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'The v1 list stays available, best-effort from 2 March 2026 and unsupported from 31 August 2026.',
  },
  'conversations.streaming.chunked-v2-v3': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'With chunked streaming enabled for the project, v2 and v3 send the same JSON body with chunked transfer encoding, cursor included.',
  },
  'conversations.streaming.not-v1': {
    doc,
    surface,
    kind: 'field',
    section: LIST_RULES,
    statement: 'v1 does not stream: its response is not chunked even when streaming is enabled for the project.',
  },
  'conversations.streaming.enablement': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: LIST_RULES,
    statement: 'How chunked streaming is enabled for a project is not shown.',
  },

  // Paths and auth
  'conversations.path.versions': {
    doc,
    surface,
    kind: 'field',
    section: 'Endpoints / Conversations list',
    statement: 'The list is served at /v3/{account_id}/{project_id}/conversations, and at /v2/... and /v1/... for the older releases.',
  },
  'conversations.path.slug-and-prefixed-ids': {
    doc,
    surface,
    kind: 'field',
    section: 'Endpoints / Conversations list',
    statement: 'account_id and project_id are accepted in both the slug form and the prefixed form.',
  },
  'conversations.auth.x-api-key-required': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: 'A v3 list request without an x-api-key header, or with a key the operator did not issue, is rejected.',
  },
  'conversations.auth.project-region-scoped': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: 'A v3 key is rejected for a project or region other than the one it was issued for.',
  },
  'conversations.auth.legacy-key-model': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Authentication',
    statement: 'The legacy key model of v1 and v2, and the status of rejected list requests, are not shown.',
  },
  'conversations.errors.body': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'The body of a conversations list error (including the malformed-cursor 400) is not shown.',
  },
  'conversations.limits.rate': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Limits',
    statement: 'Numeric rate limits of the Conversations API are not shown.',
  },
});
