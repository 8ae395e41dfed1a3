import { z } from 'zod';
import { ClientEnv, IsoDateTime } from '../common.js';
import { meaning } from '../meaning.js';
import { defineErrors } from '../rule.js';

export { ConversationsHeaders } from './wire.js';

/** Releases of the conversations list (document 2, Versioning): v3 current, v2 same schema as v3, v1 legacy. */
export const ConversationsApiVersion = z.enum(['v1', 'v2', 'v3']);
export type ConversationsApiVersion = z.infer<typeof ConversationsApiVersion>;

/**
 * A boolean query parameter: accepts `true`/`false` or the strings `'true'`/`'false'` of a URL.
 *
 * @example
 * QueryBoolean.parse('true'); // true
 */
export const QueryBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * An integer query parameter: accepts a number or a decimal string of a URL.
 *
 * @example
 * QueryInt.parse('25'); // 25
 */
export const QueryInt = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/, 'must be an integer')
      .transform(Number),
  ])
  .pipe(z.number().int());

/** A repeatable string query parameter (`channel=A&channel=B`), normalised to an array. */
export const QueryStringList = z.union([z.string().transform((s) => [s]), z.array(z.string()).min(1)]);

/** Common `channel` values of a conversation record (analytics labels); the full set is not shown. */
export const COMMON_CONVERSATION_CHANNELS = ['VOICE-SIP', 'WEBCHAT', 'CHAT'] as const;

/** Per-project response metrics that can be switched on; with none selected, `metrics` is empty. */
export const ResponseMetricName = z.enum(['CALL_IN_PROGRESS', 'CALL_COMPLETED', 'HANDOFF_TO', 'HANDOFF_REASON']);
export type ResponseMetricName = z.infer<typeof ResponseMetricName>;

/** Metric keys whose values the document shows: a string duration and an array of timestamps. */
export const BuiltInMetricName = z.enum(['CALL_DURATION', 'CALL_TURN']);
export type BuiltInMetricName = z.infer<typeof BuiltInMetricName>;

/** The `metrics` object (v3/v2): known keys typed, any other key allowed (the full key set is not shown). */
export const ConversationMetrics = meaning(
  z.looseObject({
    CALL_DURATION: z.string().optional(),
    CALL_TURN: z.array(IsoDateTime).optional(),
  }),
  { rule: 'conversations.metrics.builtin-value-types' },
);
export type ConversationMetrics = z.infer<typeof ConversationMetrics>;

/** One turn of the transcript (v3/v2): empty strings rather than null, ISO 8601 timestamps. */
export const Turn = meaning(
  z.object({
    user_input: z.string(),
    user_input_dtmf: z.string(),
    user_input_datetime: IsoDateTime,
    barge_in: z.boolean(),
    agent_response: z.string(),
    agent_response_datetime: IsoDateTime,
    /** Filled with a number when `include_latency` is true; absent or null otherwise. */
    latency: z.number().nullable().optional(),
    /** Present when translation is enabled for the project. */
    translated_user_input: z.string().optional(),
    /** Present when translation is enabled for the project. */
    english_agent_response: z.string().optional(),
    intents: z.array(z.string()),
    entities: z.record(z.string(), z.unknown()),
    is_ood: z.boolean(),
    is_silence: z.boolean(),
  }),
  { rule: 'conversations.turn.fields' },
);
export type Turn = z.infer<typeof Turn>;

/** The parts of a record that sit within a whole of the same record (document 2: durations in seconds, counts of turns). */
const PARTS = 'conversations.record.parts-within-whole';
/** The agent-handled portion of the call, in seconds like the whole. */
const agentPortion = <S extends z.ZodType>(s: S) => meaning(s, { atMost: 'total_duration', rule: PARTS });
/** A count of one kind of turn: never more than the turns, and the turns of that kind where turns is filled. */
const turnsOfAKind = <S extends z.ZodType>(s: S, where: string) =>
  meaning(s, { atMost: 'num_turns', rule: PARTS, countOf: { list: 'turns', where, rule: 'conversations.record.counts-agree' } });
/** The transcript, in the order the turns happened. */
const inOrder = <S extends z.ZodType>(s: S) =>
  meaning(s, { ascendingBy: { fields: ['user_input_datetime', 'agent_response_datetime'], rule: 'conversations.turn.ordered' } });

/** One conversation record (v3/v2): every documented field, empty strings instead of null, ISO 8601 timestamps. */
export const ConversationRecord = z.object({
  id: z.string(),
  account_id: z.string(),
  project_id: z.string(),
  variant_id: z.string(),
  variant_name: z.string(),
  environment: ClientEnv,
  started_at: IsoDateTime,
  /** Common values are in {@link COMMON_CONVERSATION_CHANNELS}; any string is valid. */
  channel: z.string(),
  from_number: z.string(),
  to_number: z.string(),
  in_progress: z.boolean(),
  /** Correct even when `turns` is empty. */
  num_turns: z.number().int().nonnegative(),
  total_duration: z.number().nonnegative(),
  polyai_duration: agentPortion(z.number().nonnegative()),
  handoff: z.boolean(),
  handoff_reason: z.string(),
  handoff_destination: z.string(),
  num_silences: turnsOfAKind(z.number().int().nonnegative(), 'is_silence'),
  num_ood: turnsOfAKind(z.number().int().nonnegative(), 'is_ood'),
  metrics: ConversationMetrics,
  state: z.record(z.string(), z.unknown()),
  /** Empty when the project's transcript visibility is off. */
  turns: inOrder(z.array(Turn)),
});
export type ConversationRecord = z.infer<typeof ConversationRecord>;

/** One turn on v1: fields may be null, timestamps need not be ISO 8601, no v3-only turn fields. */
export const TurnV1 = z.object({
  user_input: z.string().nullable(),
  user_input_dtmf: z.string().nullable(),
  user_input_datetime: z.string().nullable(),
  barge_in: z.boolean().nullable(),
  agent_response: z.string().nullable(),
  agent_response_datetime: z.string().nullable(),
  intents: z.array(z.string()).nullable(),
  entities: z.record(z.string(), z.unknown()).nullable(),
  is_ood: z.boolean().nullable(),
  is_silence: z.boolean().nullable(),
});
export type TurnV1 = z.infer<typeof TurnV1>;

/** One conversation record on v1: the same fields, nullable, with timestamps in any string form. */
export const ConversationRecordV1 = z.object({
  id: z.string(),
  account_id: z.string().nullable(),
  project_id: z.string().nullable(),
  variant_id: z.string().nullable(),
  variant_name: z.string().nullable(),
  environment: ClientEnv.nullable(),
  started_at: z.string().nullable(),
  channel: z.string().nullable(),
  from_number: z.string().nullable(),
  to_number: z.string().nullable(),
  in_progress: z.boolean().nullable(),
  num_turns: z.number().int().nonnegative().nullable(),
  total_duration: z.number().nonnegative().nullable(),
  polyai_duration: agentPortion(z.number().nonnegative().nullable()),
  handoff: z.boolean().nullable(),
  handoff_reason: z.string().nullable(),
  handoff_destination: z.string().nullable(),
  num_silences: turnsOfAKind(z.number().int().nonnegative().nullable(), 'is_silence'),
  num_ood: turnsOfAKind(z.number().int().nonnegative().nullable(), 'is_ood'),
  metrics: z.record(z.string(), z.unknown()).nullable(),
  state: z.record(z.string(), z.unknown()).nullable(),
  turns: z.array(TurnV1).nullable(),
});
export type ConversationRecordV1 = z.infer<typeof ConversationRecordV1>;

/** A v1 record under whitelisting (`enable_whitelist` true): only the project's configured fields, any of them may be absent. */
export const ConversationRecordV1Whitelisted = ConversationRecordV1.partial();
export type ConversationRecordV1Whitelisted = z.infer<typeof ConversationRecordV1Whitelisted>;

/** Fields a whitelisted v1 record typically keeps (document 2, rule 8); the project's API config decides. */
export const TYPICAL_V1_WHITELIST = ['id', 'started_at', 'account_id', 'project_id'] as const;

/** Transcript or semantic search (`query_type`). */
export const ConversationsQueryType = z.enum(['transcript', 'semantic']);
export type ConversationsQueryType = z.infer<typeof ConversationsQueryType>;

/** Random sample (`sample`); `random` is the only value. */
export const ConversationsSample = z.enum(['random']);
export type ConversationsSample = z.infer<typeof ConversationsSample>;

/** Which side of a turn a transcript search matches; omitted means both. */
export const TurnType = z.enum(['user', 'agent']);
export type TurnType = z.infer<typeof TurnType>;

/** The retrieval mode a list request uses: transcript or semantic search, random sample, or none. */
export type RetrievalMode = ConversationsQueryType | ConversationsSample | 'none';

/**
 * The documented defaults of the list filters. `in_progress` unset selects all conversations,
 * `turn_type` unset matches both sides; `limit` has no single default (see {@link LIMIT_READINGS}).
 */
export const CONVERSATIONS_LIST_DEFAULTS = {
  client_env: 'live',
  offset: 0,
  include_latency: false,
  in_progress: 'all',
  turn_type: 'both',
} as const;

/** The two documented readings of `limit` (a contradiction): the suite accepts either and reports which one it saw. */
export const LIMIT_READINGS = [
  { source: 'v3 reference', default: 1000, min: 1, max: 1000 },
  { source: 'narrative and v1', default: 5, min: 1, max: 5000 },
] as const;
export type LimitReading = (typeof LIMIT_READINGS)[number];

/** The list query parameters without the cross-field rules (use {@link ConversationsListQuery} to validate). */
export const ConversationsListQueryShape = z.object({
  start_time: IsoDateTime.optional(),
  end_time: IsoDateTime.optional(),
  query_type: ConversationsQueryType.optional(),
  sample: ConversationsSample.optional(),
  query: z.string().optional(),
  turn_type: TurnType.optional(),
  client_env: ClientEnv.default('live'),
  channel: QueryStringList.optional(),
  variant_id: z.string().optional(),
  /** Spaces are sent encoded as %20. */
  variant_name: z.string().optional(),
  /** Unset selects all conversations. */
  in_progress: QueryBoolean.optional(),
  /** No range baked in: the documents contradict, see {@link LIMIT_READINGS}. */
  limit: QueryInt.optional(),
  /** Legacy offset pagination. */
  offset: QueryInt.pipe(z.number().int().nonnegative()).default(0),
  /** Opaque keyset cursor; wins over offset when both are sent. */
  cursor: z.string().optional(),
  include_latency: QueryBoolean.default(false),
  /** Named with streaming; semantics not shown. */
  include_context_state: QueryBoolean.optional(),
  /** Named with streaming; semantics not shown. */
  include_turn_metadata: QueryBoolean.optional(),
});

/** The list query with its documented cross-field rules (retrieval modes, variant filter). Violation statuses are not shown. */
export const ConversationsListQuery = ConversationsListQueryShape.superRefine((q, ctx) => {
  if (q.query_type !== undefined && q.sample !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['sample'], message: 'query_type and sample are exclusive: one retrieval mode per request' });
  }
  if (q.query_type !== undefined && (q.query === undefined || q.query === '')) {
    ctx.addIssue({ code: 'custom', path: ['query'], message: 'query is required when query_type is set' });
  }
  if (q.sample !== undefined && q.query !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['query'], message: 'sample takes no query' });
  }
  if (q.turn_type !== undefined && q.query_type !== 'transcript') {
    ctx.addIssue({ code: 'custom', path: ['turn_type'], message: 'turn_type applies to transcript search only' });
  }
  if ((q.query_type !== undefined || q.sample !== undefined) && (q.start_time === undefined || q.end_time === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['start_time'], message: 'start_time and end_time are required with a retrieval mode' });
  }
  if (q.variant_id !== undefined && q.variant_name !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['variant_name'], message: 'send at most one of variant_id and variant_name' });
  }
});
export type ConversationsListQuery = z.infer<typeof ConversationsListQuery>;
/** The list query as a client writes it (defaults optional, strings accepted for numbers and booleans). */
export type ConversationsListQueryInput = z.input<typeof ConversationsListQuery>;

/**
 * The retrieval mode of a list query.
 *
 * @example
 * retrievalMode({ query_type: 'transcript', query: 'refund' }); // 'transcript'
 * retrievalMode({ sample: 'random' }); // 'random'
 * retrievalMode({}); // 'none'
 */
export function retrievalMode(q: { query_type?: ConversationsQueryType | undefined; sample?: ConversationsSample | undefined }): RetrievalMode {
  return q.query_type ?? q.sample ?? 'none';
}

/** List response, v3 and v2: `cursor` is null at the end, `next_offset` present when more results exist. */
export const ConversationsListResponse = z.object({
  conversations: z.array(ConversationRecord),
  next_offset: z.number().int().nonnegative().optional(),
  cursor: z.string().nullable(),
});
export type ConversationsListResponse = z.infer<typeof ConversationsListResponse>;

/** The v1 `descriptions` object: a `conversations` object describing the record keys. */
export const ConversationsDescriptionsV1 = z.object({
  conversations: z.record(z.string(), z.unknown()),
});
export type ConversationsDescriptionsV1 = z.infer<typeof ConversationsDescriptionsV1>;

/** List response, v1: `descriptions` and no `cursor`. */
export const ConversationsListResponseV1 = z.object({
  conversations: z.array(ConversationRecordV1),
  next_offset: z.number().int().nonnegative().optional(),
  descriptions: ConversationsDescriptionsV1,
  /** v1 has no cursor: any value here breaks the schema. */
  cursor: meaning(z.never(), { rule: 'conversations.v1.no-cursor' }).optional(),
});
export type ConversationsListResponseV1 = z.infer<typeof ConversationsListResponseV1>;

/** List response, v1 with whitelisting enabled: records carry only the configured fields. */
export const ConversationsListResponseV1Whitelisted = ConversationsListResponseV1.extend({
  conversations: z.array(ConversationRecordV1Whitelisted),
});
export type ConversationsListResponseV1Whitelisted = z.infer<typeof ConversationsListResponseV1Whitelisted>;

/**
 * The v1 list response of any project, as document 2 allows it: complete records, or, with whitelisting enabled
 * (`enable_whitelist` true, rule 8), records with only the fields of the project's API config. The exported contract
 * gives the v1 list this schema, so a whitelisted project's answer is not read as records missing fields.
 */
export const ConversationsListResponseV1AnyProject = z.union([
  ConversationsListResponseV1.meta({ description: 'Whitelisting off: every record carries every field.' }),
  ConversationsListResponseV1Whitelisted.meta({
    description: "Whitelisting on (enable_whitelist true): only the fields of the project's API config, typically id, started_at, account_id, project_id.",
  }),
]);
export type ConversationsListResponseV1AnyProject = z.infer<typeof ConversationsListResponseV1AnyProject>;

/** The statuses document 2's Errors table gives the conversations list (v3, with its cursor), with their meaning, verbatim. */
export const CONVERSATIONS_ERROR_STATUSES = {
  400: 'Malformed cursor.',
} as const;

/**
 * Conversations list errors. The 400 for a malformed cursor is documented; the text and the body
 * shape are not, so the text is the reference target's choice.
 */
export const ConversationsErrors = defineErrors({
  MALFORMED_CURSOR: { status: 400, text: 'Malformed cursor', documented: false },
  /** Reference-target choice: a cursor sent with filters other than those it was made for. */
  CURSOR_FILTERS_CHANGED: { status: 400, text: 'Cursor does not match the query filters', documented: false },
  /** Reference-target choice for every other parameter violation (the detail names the parameter). */
  INVALID_PARAMETER: { status: 400, text: 'Invalid query parameter', documented: false },
  LIMIT_OUT_OF_RANGE: { status: 400, text: 'limit is out of range', documented: false },
  MISSING_KEY: { status: 401, text: 'Missing API key', documented: false },
  INVALID_KEY: { status: 401, text: 'Invalid API key', documented: false },
  FORBIDDEN: { status: 403, text: 'API key is not authorised for this account and project', documented: false },
  NOT_FOUND: { status: 404, text: 'Account or project not found', documented: false },
  UNKNOWN_VERSION: { status: 404, text: 'Unsupported API version', documented: false },
});

/**
 * The reference target's seeded history of the reference project (a reference-target choice, not a
 * documented value): `count` records generated with faker and a fixed seed, started between
 * `start_time` (inclusive) and `end_time` (exclusive). Most are `live`; traffic the target serves
 * comes after it. Load scenarios and cases page this window when they run against the reference target.
 */
export const REFERENCE_HISTORY = {
  seed: 20260901,
  count: 24_000,
  start_time: '2026-09-01T00:00:00.000Z',
  end_time: '2026-11-01T00:00:00.000Z',
} as const;

/** The limit reading the reference target follows on v2 and v3 (the v3 reference); v1 follows the v1 text. */
export const REFERENCE_LIMIT_READING: LimitReading = LIMIT_READINGS[0];
