// conversations-paging: read-heavy. Setup pages the records window once by offset and keeps how many
// records it holds and their ids in order. Each iteration then walks the same window
// by cursor (omitted first, then the returned one until it is null) with the page size of the
// iteration, while other VUs do the same; any record repeated or skipped along the walk is an error
// with zero tolerance. The window (the reference target's seeded history) does not change during
// the run, so every walk must match the setup walk exactly.
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { loadConfig } from '../src/load/vu/config.js';
import { idsOf, joinIds, type ListQuery, pageOf, RecordsVu } from '../src/load/vu/records.js';

const cfg = loadConfig();

/** Page sizes the walks take in turn: the largest one (1000) fits both documented limit readings. */
const PAGE_SIZES = [1000, 500, 250] as const;
/** Bound of one walk: a target whose cursor never ends fails instead of looping. */
const MAX_PAGES = 400;

const records = new Counter('paging_records');
const pagesRead = new Counter('paging_pages');
const walkDuration = new Trend('paging_walk_duration', true);
const recordsPerSecond = new Trend('paging_walk_records_per_s');
const repeats = new Counter('paging_repeats');
const skips = new Counter('paging_skips');
const complete = new Rate('paging_walk_complete');

export const options: Options = {
  scenarios: { paging: cfg.shape },
  // The SLOs (scenarios/conversations-paging.defaults.ts, with the profile's `slos`): a breach fails the run through k6's exit code (99).
  thresholds: cfg.thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

/** The window every walk reads: the profile's records window, live records. */
const WINDOW: ListQuery = { ...cfg.target.records_window, client_env: 'live' };

/** What every walk must find: the number of records and their ids in order, as one JSON text (see joinIds). */
interface Expected {
  readonly count: number;
  readonly ids: string;
}

export async function setup(): Promise<Expected> {
  const vu = new RecordsVu(cfg);
  const pages: string[] = [];
  let count = 0;
  let offset: number | undefined = 0;
  for (let n = 0; n < MAX_PAGES && offset !== undefined; n++) {
    const p = pageOf(await vu.list({ ...WINDOW, limit: PAGE_SIZES[0], offset }));
    if (!p) throw new Error(`the setup walk by offset failed at offset ${offset}`);
    pages.push(p.ids);
    count += p.count;
    offset = p.nextOffset;
  }
  if (count === 0) throw new Error('the records window holds no live records');
  return { count, ids: joinIds(pages) };
}

// One client per VU, made on its first iteration (init code cannot read secrets lazily).
let vu: RecordsVu | undefined;

export default async function conversationsPaging(expected: Expected): Promise<void> {
  vu ??= new RecordsVu(cfg);
  const limit = PAGE_SIZES[exec.scenario.iterationInTest % PAGE_SIZES.length] as number;
  const pages: string[] = [];
  const started = Date.now();
  let cursor: string | undefined;
  let ok = true;
  let read = 0;
  let count = 0;
  // Counted and checked once per walk, not per page: the walk's figures are the same, with far fewer samples.
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = pageOf(await vu.list({ ...WINDOW, limit, cursor }));
    if (page === undefined || page.cursor === undefined) {
      ok = false;
      break;
    }
    read++;
    count += page.count;
    pages.push(page.ids);
    if (page.cursor === null) break;
    cursor = page.cursor;
  }
  const ms = Date.now() - started;
  check(ok, { 'every page answers 200 with conversations and a cursor field': (x) => x });
  pagesRead.add(read);
  records.add(count);
  // One string comparison decides; only a walk that does not match reads its ids to count repeats and skips.
  const same = count === expected.count && joinIds(pages) === expected.ids;
  let repeated = 0;
  let skipped = 0;
  if (!same) {
    const ids = idsOf(joinIds(pages));
    const unique = new Set(ids).size;
    repeated = ids.length - unique;
    skipped = Math.max(0, expected.count - unique);
  }
  if (repeated) repeats.add(repeated);
  if (skipped) skips.add(skipped);
  const exact = ok && same;
  check(exact, { 'the cursor walk returns every record of the window once, in order': (x) => x });
  complete.add(exact);
  walkDuration.add(ms);
  if (ok && ms > 0) recordsPerSecond.add((count * 1000) / ms);
}
