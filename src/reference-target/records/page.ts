import { compareRecords, type RecordData } from './model.js';

/** Where a page starts: after a keyset position (cursor), or at an offset. */
export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
  /** The last record of the previous page, from a cursor; wins over offset. */
  readonly after?: Pick<RecordData, 'startedAt' | 'id'> | undefined;
  /** The list is newest first (only a defect orders it so); the keyset search follows the list's order. */
  readonly descending?: boolean;
}

/** One page and whether more records follow it. */
export interface Page {
  readonly records: RecordData[];
  /** Index of the first record of the page in the matching list. */
  readonly start: number;
  readonly more: boolean;
}

/**
 * The index of the first record strictly after a keyset position, in an ascending list. A record
 * added or removed before the position does not move the walk, which is the point of keyset paging.
 *
 * @example
 * indexAfter(records, { startedAt: records[9].startedAt, id: records[9].id }); // 10
 */
export function indexAfter(records: readonly Pick<RecordData, 'startedAt' | 'id'>[], after: Pick<RecordData, 'startedAt' | 'id'>): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRecords(records[mid] as RecordData, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cuts one page out of the matching records (ascending): by cursor position when one is given,
 * else by offset.
 *
 * @example
 * paginate(matching, { limit: 50, offset: 0 }); // { records: [first 50], start: 0, more: true }
 */
export function paginate(matching: readonly RecordData[], req: PageRequest): Page {
  const after = req.after;
  const before = (i: number) => (i === -1 ? matching.length : i);
  const keyed = after && (req.descending ? before(matching.findIndex((r) => compareRecords(r, after) < 0)) : indexAfter(matching, after));
  const start = keyed ?? Math.min(req.offset, matching.length);
  const records = matching.slice(start, start + req.limit);
  return { records, start, more: start + records.length < matching.length };
}
