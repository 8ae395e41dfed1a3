// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import http, { type RefinedResponse } from 'k6/http';
import { ConversationsHeaders } from '../../spec/conversations-wire.js';
import type { LoadConfig } from '../config.js';
import { secret } from './config.js';

/** A query value of the conversations list; undefined leaves the parameter out. */
export type ListQuery = Readonly<Record<string, string | number | boolean | undefined>>;

/** The parts of a list page the paging scenario reads. */
export interface ListPage {
  readonly ids: string[];
  readonly cursor: string | null | undefined;
  readonly nextOffset: number | undefined;
}

/** The conversations list (document 2, v3) with the `x-api-key` header, tagged by operation name. */
export class RecordsVu {
  readonly #base: string;
  readonly #key: string;
  constructor(cfg: LoadConfig) {
    const t = cfg.target;
    this.#base = `${(t.hosts.base_url ?? '').replace(/\/$/, '')}/v3/${encodeURIComponent(t.account_id)}/${encodeURIComponent(t.project_id)}/conversations`;
    this.#key = secret(cfg, 'conversations_api_key');
  }

  /** GET …/conversations with the query, percent-encoded. */
  list(query: ListQuery): RefinedResponse<'text'> {
    const qs = Object.entries(query)
      .filter((e): e is [string, string | number | boolean] => e[1] !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    return http.get(`${this.#base}${qs ? `?${qs}` : ''}`, {
      headers: { [ConversationsHeaders.apiKey]: this.#key },
      tags: { op: 'conversations.list', name: 'conversations.list' },
      timeout: '30s',
    });
  }
}

/**
 * The ids, cursor and next_offset of a page; undefined when the body is not a list page. Read with
 * k6's gjson selectors (Go side), not JSON.parse nor res.body: a page of 1000 records is megabytes, and parsing
 * it in the VU's JavaScript would make k6, not the target, the bottleneck.
 *
 * @example
 * const p = pageOf(records.list({ limit: 1000 }));
 */
export function pageOf(res: RefinedResponse<'text'>): ListPage | undefined {
  // res.body is never touched: reading it copies the whole page into a JavaScript string, which costs the VU more than
  // everything else it does with the page.
  if (res.status !== 200) return undefined;
  try {
    // One gjson multipath read: {"ids": [...], "cursor": …, "next_offset": …}.
    const picked = res.json('{ids:conversations.#.id,cursor,next_offset}') as { ids?: unknown; cursor?: unknown; next_offset?: unknown } | undefined;
    const ids = picked?.ids;
    if (!Array.isArray(ids)) return undefined;
    const cursor = picked?.cursor;
    const nextOffset = picked?.next_offset;
    return {
      ids: ids.map(String),
      // gjson answers undefined for a missing key and null for a JSON null.
      cursor: typeof cursor === 'string' || cursor === null ? cursor : undefined,
      nextOffset: typeof nextOffset === 'number' ? nextOffset : undefined,
    };
  } catch {
    return undefined;
  }
}

/**
 * FNV-1a over a list of ids, so a walk can be compared with the expected one without shipping the
 * whole list to every VU.
 *
 * @example
 * digest(['conv-1', 'conv-2']) === digest(['conv-1', 'conv-2']); // true
 */
export function digest(ids: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const id of ids) {
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ 0x2c, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
