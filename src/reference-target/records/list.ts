import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientEnv } from '../../contract/common.js';
import {
  ConversationsApiVersion,
  ConversationsErrors,
  ConversationsListQuery,
  LIMIT_READINGS,
  type LimitReading,
  REFERENCE_LIMIT_READING,
} from '../../contract/conversations/shapes.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import { withOp } from '../ops.js';
import { authorise } from './auth.js';
import { decodeCursor, encodeCursor, filterFingerprint } from './cursor.js';
import type { RecordData } from './model.js';
import { type Page, paginate } from './page.js';
import { type RenderContext, renderedJson, renderV1, renderV3, shapeKey, V1_DESCRIPTIONS } from './render.js';
import { sampleRecords, selectRecords } from './select.js';
import type { RecordsStore } from './store.js';

type Params = { version: string; account: string; project: string };
type Query = Record<string, string | string[] | undefined>;

/** What differs between the releases of the list: page-size reading, cursor, streaming, record shape. */
interface Release {
  readonly limit: LimitReading;
  readonly cursor: boolean;
  readonly streams: boolean;
  readonly render: (r: RecordData, c: RenderContext) => Record<string, unknown>;
}

/** One row per release (document 2, Versioning): v2 has the v3 schema, v1 its own. */
const RELEASES: Record<ConversationsApiVersion, Release> = {
  v1: { limit: LIMIT_READINGS[1], cursor: false, streams: false, render: renderV1 },
  v2: { limit: REFERENCE_LIMIT_READING, cursor: true, streams: true, render: renderV3 },
  v3: { limit: REFERENCE_LIMIT_READING, cursor: true, streams: true, render: renderV3 },
};

/** The body as chunks for chunked streaming: the envelope's head, one record at a time, then its tail. */
function* chunks(records: readonly string[], tail: string): Generator<string> {
  yield '{"conversations":[';
  for (let i = 0; i < records.length; i++) yield `${i ? ',' : ''}${records[i]}`;
  yield `]${tail}}`;
}

/** FNV-1a of the filters plus a counter: each sample request draws afresh. */
const sampleSeed = (fingerprint: string, n: number) => [...fingerprint].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261 + n);

/** The filters a cursor walk keeps identical (see filterFingerprint). */
const fingerprintOf = (q: ConversationsListQuery) =>
  filterFingerprint({
    start_time: q.start_time,
    end_time: q.end_time,
    client_env: q.client_env,
    channel: q.channel,
    variant_id: q.variant_id,
    variant_name: q.variant_name,
    in_progress: q.in_progress,
    query_type: q.query_type,
    query: q.query,
    turn_type: q.turn_type,
    sample: q.sample,
  });

/** What one page answer needs to be written. */
interface Answer {
  readonly release: Release;
  readonly records: readonly string[];
  readonly page: Page;
  readonly byCursor: boolean;
  readonly fingerprint: string;
  readonly v1Cursor: boolean;
  readonly streaming: boolean;
}

/** Writes a page: records as kept JSON text (see renderedJson), then next_offset, cursor or descriptions. */
function sendPage(reply: FastifyReply, a: Answer): FastifyReply {
  const last = a.page.records.at(-1);
  const tail: Record<string, unknown> = a.page.more && !a.byCursor ? { next_offset: a.page.start + a.page.records.length } : {};
  if (a.release.cursor || a.v1Cursor)
    tail.cursor = a.page.more && last ? encodeCursor({ startedAt: last.startedAt, id: last.id, filters: a.fingerprint }) : null;
  if (!a.release.cursor) tail.descriptions = { conversations: V1_DESCRIPTIONS };
  const tailJson = Object.keys(tail).length ? `,${JSON.stringify(tail).slice(1, -1)}` : '';
  reply.type('application/json; charset=utf-8');
  if (a.release.streams && a.streaming) return reply.send(Readable.from(chunks(a.records, tailJson)));
  return reply.send(`{"conversations":[${a.records.join(',')}]${tailJson}}`);
}

/** Handles GET /{version}/{account_id}/{project_id}/conversations. */
function list(ctx: TargetContext, store: RecordsStore, samples: { n: number }) {
  return (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    const version = ConversationsApiVersion.safeParse(req.params.version);
    if (!version.success) return sendError(reply, ConversationsErrors.UNKNOWN_VERSION);
    const release = RELEASES[version.data];
    const auth = authorise(store, req, reply, ConversationsErrors, req.params);
    if (!auth) return reply;
    const parsed = ConversationsListQuery.safeParse(req.query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return sendError(reply, ConversationsErrors.INVALID_PARAMETER, `${issue?.path.join('.') || 'query'}: ${issue?.message}`);
    }
    const q = parsed.data;
    const limit = q.limit ?? release.limit.default;
    if (limit < release.limit.min || limit > release.limit.max) {
      return sendError(reply, ConversationsErrors.LIMIT_OUT_OF_RANGE, `limit must be from ${release.limit.min} to ${release.limit.max}`);
    }
    const d = ctx.defects;
    const fingerprint = fingerprintOf(q);
    let after: { startedAt: number; id: string } | undefined;
    if (release.cursor && q.cursor !== undefined) {
      const key = decodeCursor(q.cursor);
      if (!key && !d.has('conversations-malformed-cursor-first-page')) return sendError(reply, ConversationsErrors.MALFORMED_CURSOR);
      if (key && key.filters !== fingerprint) return sendError(reply, ConversationsErrors.CURSOR_FILTERS_CHANGED);
      after = key;
    }
    const bounds = { fromMs: q.start_time ? Date.parse(q.start_time) : undefined, toMs: q.end_time ? Date.parse(q.end_time) : undefined };
    const env: ClientEnv | undefined = d.has('conversations-env-default-all') && req.query.client_env === undefined ? undefined : q.client_env;
    // One defect drops turn_type on the way to the search; another reads in_progress from an index never updated at the end.
    const search = d.has('conversations-turn-type-ignored') ? { ...q, turn_type: undefined } : q;
    const inProgressOf = d.has('conversations-in-progress-filter-stale') ? (r: RecordData) => store.inProgressWhenStored(r) : undefined;
    const matching = selectRecords(store.records(auth.project, bounds), search, env, inProgressOf);
    const descending = d.has('conversations-newest-first');
    if (descending) matching.reverse();

    let page: Page;
    if (q.sample === 'random') {
      page = { records: sampleRecords(matching, limit, sampleSeed(fingerprint, ++samples.n)), start: 0, more: false };
    } else {
      const offsetWins = d.has('conversations-offset-beats-cursor') && req.query.offset !== undefined;
      page = paginate(matching, { limit, offset: q.offset, after: offsetWins ? undefined : after, descending });
      if (after && !offsetWins && page.start > 0 && d.has('conversations-cursor-skips-edge')) {
        page = paginate(matching, { limit, offset: page.start + 1 });
      }
    }
    const render: RenderContext = {
      now: ctx.clock.now(),
      project: auth.project,
      includeLatency: q.include_latency,
      stateOf: (r) => store.stateOf(r),
      agentDurationInMs: d.has('conversations-agent-duration-in-ms'),
    };
    const shape = shapeKey(version.data === 'v1' ? 'v1' : 'v3', render);
    const records = page.records.map((r) => renderedJson(r, shape, !store.hasLaterState(r.id), () => release.render(r, render)));
    return sendPage(reply, {
      release,
      records,
      page,
      byCursor: after !== undefined,
      fingerprint,
      v1Cursor: d.has('conversations-v1-cursor'),
      streaming: auth.project.settings.streaming,
    });
  };
}

/** Registers the conversations list on the runtime host, beside the chat routes. */
export function registerList(app: FastifyInstance, ctx: TargetContext, store: RecordsStore): void {
  app.get('/:version/:account/:project/conversations', withOp('conversations.list'), list(ctx, store, { n: 0 }));
}
