import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';

const STREAMING_FLAGS = 'the semantics of include_context_state and include_turn_metadata are not shown (conversations.filter.streaming-flags records them)';

/** The list's query fields, each shown on v3. */
const LIST_FIELDS = [
  'start_time',
  'end_time',
  'query_type',
  'sample',
  'query',
  'turn_type',
  'client_env',
  'channel',
  'variant_id',
  'variant_name',
  'in_progress',
  'limit',
  'offset',
  'cursor',
  'include_latency',
  'include_context_state',
  'include_turn_metadata',
] as const;
export type ListField = (typeof LIST_FIELDS)[number];

const SAMPLE = 'a random sample differs from one request to the next, so draws on two versions cannot be compared';

/** The list fields on v2 and v1 whose effect is not compared with v3's, and why. */
const NOT_COMPARED: Record<'v2' | 'v1', Partial<Record<ListField, string>>> = {
  v2: { sample: SAMPLE, include_context_state: STREAMING_FLAGS, include_turn_metadata: STREAMING_FLAGS },
  v1: {
    sample: SAMPLE,
    cursor: 'v1 has no cursor (documented; conversations.v1.no-cursor)',
    include_latency: 'latency is one of the turn fields v1 does not carry (documented: extra turn fields are v3 only)',
    include_context_state: STREAMING_FLAGS,
    include_turn_metadata: STREAMING_FLAGS,
  },
};

/** The query fields whose effect on `version` the case per version compares with v3's. */
export const comparedListFields = (version: 'v2' | 'v1'): ListField[] => LIST_FIELDS.filter((f) => NOT_COMPARED[version][f] === undefined);

/** The list fields on v2 and v1: compared with v3 by one case per version, or why not. */
const olderListFields = (['v2', 'v1'] as const).flatMap((version) =>
  LIST_FIELDS.map((field) => {
    const why = NOT_COMPARED[version][field];
    return {
      operation: `GET /${version}/{account_id}/{project_id}/conversations`,
      field,
      shown: why ? unobservable(why) : by('conversations.path.query-alike-across-versions'),
    };
  }),
);

/** Where each conversations behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const ConversationsAudit = {
  credentials: credentials(
    ['conversations.auth.x-api-key-required', 'conversations.auth.project-region-scoped'],
    ['GET /v3/{account_id}/{project_id}/conversations'],
  ),
  fields: [
    ...fields('GET /v3/{account_id}/{project_id}/conversations', {
      start_time: by('conversations.filter.time-range'),
      end_time: by('conversations.filter.time-range'),
      query_type: by('conversations.retrieval.transcript-matches'),
      sample: by('conversations.retrieval.sample-subset'),
      query: by('conversations.retrieval.transcript-matches'),
      turn_type: by('conversations.filter.turn-type-transcript-only'),
      client_env: by('conversations.filter.client-env-values'),
      channel: by('conversations.filter.channel-repeatable'),
      variant_id: by('conversations.filter.variant-id'),
      variant_name: by('conversations.filter.variant-name-encoded'),
      in_progress: by('conversations.filter.in-progress-selects'),
      limit: by('conversations.limit.page-size'),
      offset: by('conversations.offset.next-offset-as-offset'),
      cursor: by('conversations.cursor.pass-returned'),
      include_latency: by('conversations.filter.include-latency-fills'),
      include_context_state: unobservable(STREAMING_FLAGS),
      include_turn_metadata: unobservable(STREAMING_FLAGS),
    }),
    ...olderListFields,
  ],
  events: [],
} satisfies SurfaceAudit;
