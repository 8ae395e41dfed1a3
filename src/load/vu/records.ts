// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import http, { type Params, type RefinedResponse } from 'k6/http';
import { ConversationsHeaders } from '../../contract/conversations/wire.js';
import type { LoadConfig } from '../config.js';
import { secret } from './config.js';

/** A query value of the conversations list; undefined leaves the parameter out. */
export type ListQuery = Readonly<Record<string, string | number | boolean | undefined>>;

/** The parts of a list page the paging scenario reads. */
export interface ListPage {
  /** The page's ids in order as JSON text without the brackets (`"conv-1","conv-2"`), `''` for an empty page. */
  readonly ids: string;
  readonly count: number;
  readonly cursor: string | null | undefined;
  readonly nextOffset: number | undefined;
}

/** The conversations list (document 2, v3) with the `x-api-key` header, tagged by operation name. */
export class RecordsVu {
  readonly #base: string;
  /** The list's request parameters, made once: the same object for every page. */
  readonly #params: Params & { responseType: 'binary' };
  constructor(cfg: LoadConfig) {
    const t = cfg.target;
    this.#base = `${(t.hosts.base_url ?? '').replace(/\/$/, '')}/v3/${encodeURIComponent(t.account_id)}/${encodeURIComponent(t.project_id)}/conversations`;
    this.#params = {
      headers: { [ConversationsHeaders.apiKey]: secret(cfg, 'conversations_api_key') },
      tags: { op: 'conversations.list', name: 'conversations.list' },
      timeout: '30s',
      // The body stays bytes: a text body is a JavaScript copy of the whole page (megabytes), made for every page.
      responseType: 'binary',
    };
  }

  /** GET …/conversations with the query, percent-encoded. */
  list(query: ListQuery): Promise<RefinedResponse<'binary'>> {
    const qs = Object.entries(query)
      .filter((e): e is [string, string | number | boolean] => e[1] !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    return http.asyncRequest('GET', `${this.#base}${qs ? `?${qs}` : ''}`, null, this.#params);
  }
}

/**
 * The ids, their count, cursor and next_offset of a page; undefined when the body is not a list page. Read with one
 * k6 gjson multipath (Go side): the ids come back as one JSON text (`@tostr`), not as a thousand JavaScript strings,
 * and the body is never copied into JavaScript (JSON.parse or res.body of a page of 1000 records would make k6, not
 * the target, the bottleneck).
 *
 * @example
 * const p = pageOf(await records.list({ limit: 1000 })); // { ids: '"conv-1","conv-2",…', count: 1000, cursor: 'c1.…', … }
 */
export function pageOf(res: RefinedResponse<'binary'>): ListPage | undefined {
  if (res.status !== 200) return undefined;
  try {
    const picked = res.json('{ids:conversations.#.id|@tostr,count:conversations.#,cursor,next_offset}') as
      | { ids?: unknown; count?: unknown; cursor?: unknown; next_offset?: unknown }
      | undefined;
    const ids = picked?.ids;
    if (typeof ids !== 'string' || !ids.startsWith('[') || typeof picked?.count !== 'number') return undefined;
    const cursor = picked.cursor;
    const nextOffset = picked.next_offset;
    return {
      ids: ids.slice(1, -1),
      count: picked.count,
      // gjson answers undefined for a missing key and null for a JSON null.
      cursor: typeof cursor === 'string' || cursor === null ? cursor : undefined,
      nextOffset: typeof nextOffset === 'number' ? nextOffset : undefined,
    };
  } catch {
    return undefined;
  }
}

/**
 * The ids of a walk as one JSON text, pages joined in order: the same for every page size when no record is repeated
 * or skipped, so a walk is checked by one string comparison (in Go) instead of a loop over every id in JavaScript.
 *
 * @example
 * joinIds(['"conv-1","conv-2"', '', '"conv-3"']); // '"conv-1","conv-2","conv-3"'
 */
export function joinIds(pages: readonly string[]): string {
  return pages.filter((p) => p !== '').join(',');
}

/**
 * The ids of a joined walk, read only when a walk did not match (to count its repeats and skips).
 *
 * @example
 * idsOf('"conv-1","conv-2"'); // ['conv-1', 'conv-2']
 */
export function idsOf(joined: string): string[] {
  return (JSON.parse(`[${joined}]`) as unknown[]).map(String);
}
