import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IsoDateTime } from '../../contract/common.js';
import {
  CONCURRENCY_WINDOW_MS,
  ConcurrencyErrors,
  type ConcurrencyInterval,
  ConcurrencyQueryShape,
  type ConcurrencyResponse,
  ceilToWindow,
  floorToWindow,
  MAX_SPAN_MS,
  NOT_IMPLEMENTED_SLICE_BY,
} from '../../contract/concurrency/shapes.js';
import type { ErrorEntry } from '../../contract/rule.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import { authorise } from './auth.js';
import { activeUntil, type RecordData } from './model.js';
import { peaks } from './peaks.js';
import type { RecordsStore } from './store.js';

type Params = { version: string; account: string; project: string };
type Query = Record<string, string | string[] | undefined>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The time checks in order; the first that applies names the 400. */
function timeError(q: Query, maxSpan: number): ErrorEntry | undefined {
  if (typeof q.start_time !== 'string' || typeof q.end_time !== 'string') return ConcurrencyErrors.MISSING_TIME;
  if (!IsoDateTime.safeParse(q.start_time).success || !IsoDateTime.safeParse(q.end_time).success) return ConcurrencyErrors.INVALID_TIME;
  const span = Date.parse(q.end_time) - Date.parse(q.start_time);
  if (span < 0) return ConcurrencyErrors.BAD_TIME_RANGE;
  if (span > maxSpan) return ConcurrencyErrors.SPAN_TOO_LONG;
  return undefined;
}

/** Handles GET /v1/{account_id}/{project_id}/conversations/concurrency. */
function concurrency(ctx: TargetContext, store: RecordsStore) {
  return (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    if (req.params.version !== 'v1') return reply.callNotFound();
    const d = ctx.defects;
    const auth = authorise(store, req, reply, ConcurrencyErrors, req.params, { allowOtherProject: d.has('concurrency-other-project-key-allowed') });
    if (!auth) return reply;
    if (auth.project.settings.internalError) return sendError(reply, ConcurrencyErrors.INTERNAL);
    const q = req.query;
    const bad = timeError(q, d.has('concurrency-span-eight-days') ? MAX_SPAN_MS + DAY_MS : MAX_SPAN_MS);
    if (bad) return sendError(reply, bad);
    const parsed = ConcurrencyQueryShape.safeParse(q);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return sendError(reply, ConcurrencyErrors.INVALID_PARAMETER, `${issue?.path.join('.') || 'query'}: ${issue?.message}`);
    }
    const p = parsed.data;
    if (p.variant_id !== undefined && p.variant_name !== undefined) {
      return sendError(reply, ConcurrencyErrors.INVALID_PARAMETER, 'send at most one of variant_id and variant_name');
    }
    const slice = p.slice_by === 'language' && d.has('concurrency-slice-language-ok') ? undefined : p.slice_by;
    if (slice && (NOT_IMPLEMENTED_SLICE_BY as readonly string[]).includes(slice)) return sendError(reply, ConcurrencyErrors.SLICE_BY_NOT_IMPLEMENTED);

    const start = Date.parse(p.start_time);
    const from = d.has('concurrency-start-rounded-up') ? ceilToWindow(start) : floorToWindow(start);
    const to = ceilToWindow(Date.parse(p.end_time));
    const now = ctx.clock.now();
    const matches = (r: RecordData) =>
      r.environment === p.client_env &&
      (p.variant_id === undefined || r.variantId === p.variant_id) &&
      (p.variant_name === undefined || r.variantName === p.variant_name) &&
      (p.language === undefined || r.language === p.language) &&
      (p.phone_number === undefined || r.fromNumber === p.phone_number || r.toNumber === p.phone_number) &&
      activeUntil(r, now) > from;
    const records = store.records(auth.project, { toMs: to }).filter(matches);
    const series = (rs: readonly RecordData[]) =>
      peaks(
        rs.map((r) => ({ start: r.startedAt, end: activeUntil(r, now) })),
        from,
        to,
      );
    const intervals: ConcurrencyInterval[] = [];
    const time = (w: number) => new Date(from + w * CONCURRENCY_WINDOW_MS).toISOString();
    if (slice === 'variant') {
      const per = auth.project.variants.map((v) => ({ v, s: series(records.filter((r) => r.variantId === v.id)) }));
      const n = per[0]?.s.length ?? 0;
      for (let w = 0; w < n; w++) {
        for (const { v, s } of per) intervals.push({ time: time(w), max_concurrent_conversations: s[w] ?? 0, variant_id: v.id, variant_name: v.name });
      }
    } else {
      series(records).forEach((m, w) => {
        intervals.push({ time: time(w), max_concurrent_conversations: m });
      });
    }
    const body: ConcurrencyResponse = { account_id: auth.project.accountId, project_id: auth.project.projectId, intervals };
    return reply.send(body);
  };
}

/** Registers the concurrency series on the runtime host. */
export function registerConcurrency(app: FastifyInstance, ctx: TargetContext, store: RecordsStore): void {
  app.get('/:version/:account/:project/conversations/concurrency', concurrency(ctx, store));
}
