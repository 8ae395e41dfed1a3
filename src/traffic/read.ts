import type { Response } from '../clients/exchange.js';
import { TargetUnreachable } from '../clients/exchange.js';
import type { Query, RecordsClient } from '../clients/records.js';
import { type ConcurrencyResponse, MAX_SPAN_MS } from '../contract/concurrency/shapes.js';
import { EnvironmentError } from '../errors.js';
import type { ConcurrencyWindow } from './learn.js';

/** A page size both documented readings of `limit` accept (1..1000 on v3, 1..5000 in the narrative and v1). */
export const PAGE_LIMIT = 1000;

/** The window and filter the records are read for. */
export interface ReadWindow {
  readonly fromMs: number;
  readonly toMs: number;
  readonly clientEnv: string;
}

/** An answer of the platform that is not a success, as one line: what was asked, the status, the error text. */
export class PlatformApiError extends EnvironmentError {}

/** The error text of an answer (`error_message`, `message`, `detail`, else the start of the body), on one line. */
function errorText(res: Response<unknown>): string {
  const j = res.json as Record<string, unknown> | undefined;
  const text = [j?.error_message, j?.message, j?.detail].find((v) => typeof v === 'string') ?? res.text.slice(0, 160);
  return String(text).replace(/\s+/g, ' ').trim();
}

/** Sends one call; an unreachable target or an answer that is not 2xx becomes a one-line {@link PlatformApiError}. */
async function call<T>(what: string, send: () => Promise<Response<T>>): Promise<T> {
  let res: Response<T>;
  try {
    res = await send();
  } catch (e) {
    if (e instanceof TargetUnreachable) throw new PlatformApiError(`${what}: ${e.message}`);
    throw e;
  }
  if (res.status < 200 || res.status > 299 || res.json === undefined) {
    throw new PlatformApiError(`${what} answered ${res.status}${res.json === undefined && res.status < 300 ? ' without JSON' : `: ${errorText(res)}`}`);
  }
  return res.json;
}

type ListPage = { conversations?: unknown[]; cursor?: string | null; next_offset?: number };

/**
 * Every conversation record started in the window, paged to the end: v3 and v2 by `cursor` (until it is null), v1 by
 * `next_offset` (until it is absent). With `include_latency`, so turns carry their latency.
 *
 * @example
 * const raw = await readRecords(client, 'v3', { fromMs, toMs, clientEnv: 'live' });
 */
export async function readRecords(client: RecordsClient, version: string, w: ReadWindow, onPage?: (n: number) => void): Promise<unknown[]> {
  const base: Query = {
    start_time: new Date(w.fromMs).toISOString(),
    end_time: new Date(w.toMs).toISOString(),
    client_env: w.clientEnv,
    limit: PAGE_LIMIT,
    include_latency: true,
  };
  const out: unknown[] = [];
  let next: Query = {};
  for (;;) {
    const page = await call<ListPage>(`GET /${version}/…/conversations`, () => client.list<ListPage>({ ...base, ...next }, { version }));
    out.push(...(page.conversations ?? []));
    onPage?.(out.length);
    if (version === 'v1') {
      if (page.next_offset === undefined || (page.conversations ?? []).length === 0) return out;
      next = { offset: page.next_offset };
    } else {
      if (!page.cursor) return out;
      next = { cursor: page.cursor };
    }
    client.log.length = 0; // the wire log is for cases; thousands of pages need not be kept
  }
}

/**
 * The concurrency series of the window (5-minute peaks), asked for a week at a time (the documented longest span).
 *
 * @example
 * const windows = await readConcurrency(client, { fromMs, toMs, clientEnv: 'live' });
 */
export async function readConcurrency(client: RecordsClient, w: ReadWindow): Promise<ConcurrencyWindow[]> {
  const out: ConcurrencyWindow[] = [];
  const seen = new Set<number>();
  for (let from = w.fromMs; from < w.toMs; from += MAX_SPAN_MS) {
    const to = Math.min(from + MAX_SPAN_MS, w.toMs);
    const query = { start_time: new Date(from).toISOString(), end_time: new Date(to).toISOString(), client_env: w.clientEnv };
    const body = await call<ConcurrencyResponse>('GET /v1/…/conversations/concurrency', () => client.concurrency<ConcurrencyResponse>(query));
    for (const i of body.intervals ?? []) {
      const at = Date.parse(i.time);
      // Windows at a week's edge are answered by both calls: keep the first.
      if (seen.has(at)) continue;
      seen.add(at);
      out.push({ at, peak: i.max_concurrent_conversations });
    }
    client.log.length = 0;
  }
  return out;
}
