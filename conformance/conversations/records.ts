import { z } from 'zod';
import type { Response } from '../../src/clients/exchange.js';
import type { Query, RecordsCallOptions, RecordsClient } from '../../src/clients/records.js';
import { RecordsControl } from '../../src/clients/records-control.js';
import { ChatCreateResponse } from '../../src/contract/chat/shapes.js';
import { REFERENCE_HISTORY } from '../../src/contract/conversations/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import type { CaseContext } from '../../src/suite/context.js';

// Shared steps of the document-2 record cases: time windows with data, paging walks, finding the
// conversations a case made through chat.

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** A time window as query parameters (a type, not an interface, so it passes as a query record). */
export type Window = { readonly start_time: string; readonly end_time: string };

const iso = (ms: number) => new Date(ms).toISOString();
const win = (from: number, to: number): Window => ({ start_time: iso(from), end_time: iso(to) });

/**
 * Windows with an unchanging data set. On the reference target they lie inside its seeded
 * history, which no traffic of the run touches; on a real target they end a day ago, so records
 * arriving during the run stay out of them.
 */
export function windows(t: CaseContext): { week: Window; day: Window; hour: Window; quiet: Window } {
  const start = t.profile.kind === 'reference' ? Date.parse(REFERENCE_HISTORY.start_time) : Date.now() - 8 * DAY_MS;
  return {
    week: win(start, start + 7 * DAY_MS),
    day: win(start + DAY_MS, start + 2 * DAY_MS),
    hour: win(start + DAY_MS + 10 * HOUR_MS, start + DAY_MS + 11 * HOUR_MS),
    // Three hours of one afternoon, for the concurrency cross-checks.
    quiet: win(start + 2 * DAY_MS + 14 * HOUR_MS, start + 2 * DAY_MS + 17 * HOUR_MS),
  };
}

/**
 * An hour either side of the target's now, where the conversations a case makes through chat land.
 * The reference target's clock is read from its control surface (other cases may have moved it);
 * a real target's is taken to be within the hour of ours.
 */
export async function recent(api: CaseApi): Promise<Window> {
  const now = api.t.capabilities.has('control') ? Date.parse((await api.t.control.call<{ clock: { now: string } }>('GET', '/state')).clock.now) : Date.now();
  return win(now - HOUR_MS, now + HOUR_MS);
}

/** The fields of a record the paging cases rely on; the record cases check the full schema. */
export const LooseRecord = z.looseObject({ id: z.string(), started_at: z.string() });
export type LooseRecord = z.infer<typeof LooseRecord>;

/** A list page as the paging cases read it. */
export const LoosePage = z.looseObject({
  conversations: z.array(LooseRecord),
  next_offset: z.number().int().nonnegative().optional(),
  cursor: z.string().nullable().optional(),
});
export type LoosePage = z.infer<typeof LoosePage>;

/** One page, parsed loosely; fails the case when the answer is not a list page. */
export async function page(
  api: CaseApi,
  query: Query,
  o: RecordsCallOptions = {},
  client: RecordsClient = api.t.records,
): Promise<LoosePage & { res: Response }> {
  const res = await client.list(query, o);
  api.check.success(res, 'the list answers 2xx');
  return { ...api.check.schema(res, LoosePage, 'a list page: conversations (array of records with id and started_at), next_offset, cursor'), res };
}

/** Walks are bounded: a target that never ends a walk fails instead of hanging. */
const MAX_PAGES = 120;

/** Every record of a query, paged by offset (next_offset as offset) until next_offset is absent. */
export async function walkOffset(api: CaseApi, query: Query, limit: number, client?: RecordsClient): Promise<{ records: LooseRecord[]; pages: LoosePage[] }> {
  const records: LooseRecord[] = [];
  const pages: LoosePage[] = [];
  let offset = 0;
  for (let n = 0; n < MAX_PAGES; n++) {
    const p = await page(api, { ...query, limit, offset }, {}, client);
    pages.push(p);
    records.push(...p.conversations);
    if (p.next_offset === undefined) return { records, pages };
    api.check.that(p.next_offset > offset, 'next_offset moves forward', { offset, next_offset: p.next_offset });
    offset = p.next_offset;
  }
  api.check.that(false, `the offset walk ends within ${MAX_PAGES} pages`, `${records.length} records so far`);
  return { records, pages };
}

/** Every record of a query, paged by cursor (omitted first, then the returned one) until it is null. */
export async function walkCursor(api: CaseApi, query: Query, limit: number, client?: RecordsClient): Promise<{ records: LooseRecord[]; pages: LoosePage[] }> {
  const records: LooseRecord[] = [];
  const pages: LoosePage[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const p = await page(api, { ...query, limit, cursor }, {}, client);
    pages.push(p);
    records.push(...p.conversations);
    api.check.that(p.cursor !== undefined, 'every v3 page carries cursor (string or null)', Object.keys(p));
    if (p.cursor === null || p.cursor === undefined) return { records, pages };
    cursor = p.cursor;
  }
  api.check.that(false, `the cursor walk ends within ${MAX_PAGES} pages`, `${records.length} records so far`);
  return { records, pages };
}

/** The ids of a list of records, in order. */
export const ids = (records: readonly { readonly id?: unknown }[]): string[] => records.map((r) => String(r.id));

/** Ids that occur more than once. */
export function repeated(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of list) {
    if (seen.has(id)) twice.add(id);
    seen.add(id);
  }
  return [...twice];
}

/** Whether started_at never goes down along the list. */
export function ascending(records: readonly { started_at: string }[]): { ok: boolean; at?: number } {
  for (let i = 1; i < records.length; i++) {
    if (Date.parse((records[i - 1] as LooseRecord).started_at) > Date.parse((records[i] as LooseRecord).started_at)) return { ok: false, at: i };
  }
  return { ok: true };
}

/** A marker word no transcript holds, so a case finds exactly its own conversation. */
export const marker = () => `dialtone${Math.random().toString(36).slice(2, 10)}`;

/** Starts a chat conversation whose first user turn holds `message`; returns its id. */
export async function chatConversation(api: CaseApi, message: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.t.chat.create({ channel: 'api', initial_message: message, ...extra });
  return api.check.schema(res, ChatCreateResponse, 'a chat conversation to read back as a record').conversation_id;
}

/** The records of the case's own conversations, found in the recent window of the profile's environment (offset paging, no mode). */
export async function ownRecords(api: CaseApi, wanted: readonly string[], query: Query = {}): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  let offset = 0;
  const window = await recent(api);
  for (let n = 0; n < 20 && found.size < wanted.length; n++) {
    const res = await api.t.records.list({ ...window, client_env: api.t.profile.environment, limit: 1000, offset, ...query });
    api.check.success(res, 'the list of recent traffic answers 2xx');
    const p = api.check.schema(res, LoosePage, 'a list page');
    for (const r of p.conversations) if (wanted.includes(r.id)) found.set(r.id, r);
    if (p.next_offset === undefined) break;
    offset = p.next_offset;
  }
  return found;
}

/** The reference target's records control (cases that use it declare `needs: ['control']`). */
export const recordsControl = (api: CaseApi) => new RecordsControl(api.t.control);

/** A client on a project minted for the case with the given settings. */
export async function mintedRecords(api: CaseApi, settings: Parameters<RecordsControl['mintProject']>[0] = {}, key: 'api_key' | 'api_key_no_pii' = 'api_key') {
  const minted = await recordsControl(api).mintProject(settings);
  return { minted, client: api.t.records.forProject(RecordsControl.asProject(minted, key)) };
}

/** Every turn of a list of records (records without a turns array contribute none). */
export function turnsOf(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return records.flatMap((r) => (Array.isArray(r.turns) ? (r.turns as Record<string, unknown>[]) : []));
}

const wordsOf = (text: unknown) => (typeof text === 'string' ? (text.toLowerCase().match(/[a-z]{6,}/g) ?? []) : []);

/**
 * A record and a word (6+ letters) that appears on one side of its turns and never on the other:
 * the transcript-search cases query it with and without turn_type.
 */
export function oneSidedWord(records: readonly Record<string, unknown>[], side: 'user' | 'agent'): { id: string; word: string } | undefined {
  const [mine, theirs] = side === 'user' ? ['user_input', 'agent_response'] : ['agent_response', 'user_input'];
  for (const r of records) {
    const turns = (r.turns as Record<string, unknown>[] | undefined) ?? [];
    const other = new Set(turns.flatMap((tn) => wordsOf(tn[theirs])));
    const word = turns.flatMap((tn) => wordsOf(tn[mine])).find((w) => !other.has(w));
    if (word) return { id: String(r.id), word };
  }
  return undefined;
}

/** Whether any turn of a record holds the word on the given side (case-insensitive). */
export function saysOn(r: Record<string, unknown>, word: string, side: 'user' | 'agent' | 'both'): boolean {
  const keys = side === 'user' ? ['user_input'] : side === 'agent' ? ['agent_response'] : ['user_input', 'agent_response'];
  return ((r.turns as Record<string, unknown>[] | undefined) ?? []).some((tn) =>
    keys.some((k) =>
      String(tn[k] ?? '')
        .toLowerCase()
        .includes(word.toLowerCase()),
    ),
  );
}
