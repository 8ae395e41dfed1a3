import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';

const STREAMING_FLAGS = 'the semantics of include_context_state and include_turn_metadata are not shown (conversations.filter.streaming-flags records them)';

/** The list's query fields, each shown on v3; on v2 and v1 the same effects are not yet checked field by field. */
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
const listFieldGaps = (version: 'v2' | 'v1') =>
  LIST_FIELDS.map((field) => ({
    operation: `GET /${version}/{account_id}/{project_id}/conversations`,
    field,
    shown: { gap: `shown on v3 (same field, same documented meaning); not yet checked on ${version} field by field` },
  }));

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
    ...listFieldGaps('v2'),
    ...listFieldGaps('v1'),
  ],
  events: [],
} satisfies SurfaceAudit;
