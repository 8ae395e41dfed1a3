import { LIMIT_READINGS } from '../../src/contract/conversations/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { ascending, ids, page, repeated, walkCursor, walkOffset, windows } from './records.js';

const day = (api: CaseApi) => ({ ...windows(api.t).day, client_env: 'live' });
const week = (api: CaseApi) => ({ ...windows(api.t).week, client_env: 'live' });

rule('conversations.limit.default-and-range', 'follows one documented reading of the limit default and range, and reports which', async (api) => {
  const { t, check } = api;
  const unset = await page(api, week(api));
  const n = unset.conversations.length;
  const reading = LIMIT_READINGS.find((r) => r.default === n);
  check.that(
    reading !== undefined && unset.next_offset !== undefined,
    'the default page holds 1000 (v3 reference) or 5 (narrative) records, with more to come',
    n,
  );
  const r = reading as (typeof LIMIT_READINGS)[number];
  check.success(await t.records.list({ ...week(api), limit: r.min }), `limit=${r.min}, the minimum, is accepted`);
  const top = await page(api, { ...week(api), limit: r.max });
  // More records exist than the default page holds, so the maximum page is fuller than the default one (or as full, when they are equal).
  const least = Math.min(r.max, r.default + 1);
  check.that(top.conversations.length <= r.max && top.conversations.length >= least, `limit=${r.max}, the maximum, is accepted`, top.conversations.length);
  const beyond = await t.records.list({ ...week(api), limit: r.max + 1 });
  const served = (beyond.json as { conversations?: unknown[] } | undefined)?.conversations?.length ?? 0;
  check.that(
    (beyond.status >= 400 && beyond.status < 500) || served <= r.max,
    `limit=${r.max + 1} is refused or capped at ${r.max}`,
    `${beyond.status}, ${served} records`,
  );
  api.choose(`${r.source}: default ${r.default}, range ${r.min} to ${r.max}`);
});

rule('conversations.limit.page-size', 'never returns more records than the limit sent', async (api) => {
  for (const limit of [1, 7, 50]) {
    const p = await page(api, { ...day(api), limit });
    api.check.that(p.conversations.length <= limit && p.conversations.length > 0, `at most ${limit} records`, p.conversations.length);
  }
});

rule('conversations.limit.out-of-range', 'records what the list answers for a limit outside the range', async (api) => {
  const out: Record<string, string> = {};
  for (const limit of [0, -1, 5001, 100000]) {
    const res = await api.t.records.list({ ...day(api), limit });
    out[`limit=${limit}`] = `${res.status} ${(res.json as { conversations?: unknown[] } | undefined)?.conversations?.length ?? res.text.slice(0, 80)}`;
  }
  api.observe('answers', out);
});

rule('conversations.offset.default-zero', 'starts at offset 0 when offset is left out', async (api) => {
  const unset = await page(api, { ...day(api), limit: 20 });
  const zero = await page(api, { ...day(api), limit: 20, offset: 0 });
  api.check.that(unset.conversations.length > 0, 'records', 0);
  api.check.equal(ids(unset.conversations), ids(zero.conversations), 'the same page as offset=0');
});

rule('conversations.offset.next-offset-present', 'gives next_offset while more records exist and leaves it out on the last page', async (api) => {
  const { pages } = await walkOffset(api, day(api), 100);
  api.check.that(pages.length >= 2, 'the walk has more than one page', pages.length);
  api.check.that(
    pages.slice(0, -1).every((p) => Number.isInteger(p.next_offset)),
    'an integer next_offset on every page but the last',
    pages.map((p) => p.next_offset),
  );
  api.check.equal(pages.at(-1)?.next_offset, undefined, 'no next_offset on the last page');
});

rule('conversations.offset.next-offset-as-offset', 'returns the following page when next_offset is passed as offset', async (api) => {
  const first = await page(api, { ...day(api), limit: 30 });
  api.check.that(first.next_offset !== undefined, 'next_offset on the first page', first.next_offset);
  const second = await page(api, { ...day(api), limit: 30, offset: first.next_offset });
  const both = await page(api, { ...day(api), limit: 60 });
  api.check.equal(ids(second.conversations), ids(both.conversations).slice(30, 60), 'the records that follow the first page');
});

rule('conversations.offset.walk-complete', 'returns every matching record exactly once when walked by offset', async (api) => {
  const { records } = await walkOffset(api, day(api), 50);
  const whole = await page(api, { ...day(api), limit: 1000 });
  api.check.that(whole.next_offset === undefined, 'the day fits one page of 1000 for comparison', whole.conversations.length);
  api.check.equal(repeated(ids(records)), [], 'no record repeated');
  api.check.equal(ids(records), ids(whole.conversations), 'the same records, in the same order, as one large page');
});

rule('conversations.cursor.omit-first', 'answers a first request without cursor with the first page and a cursor field', async (api) => {
  const first = await page(api, { ...day(api), limit: 10 });
  api.check.that(first.conversations.length > 0, 'the first page holds records', 0);
  api.check.that(first.cursor !== undefined, 'the response has a cursor field', Object.keys(first.res.json as object));
  api.check.that(typeof first.cursor === 'string', 'a string cursor, since more records follow', first.cursor);
});

rule('conversations.cursor.pass-returned', 'returns the page that follows when the returned cursor is passed', async (api) => {
  const first = await page(api, { ...day(api), limit: 30 });
  api.check.that(typeof first.cursor === 'string', 'a cursor on the first page', first.cursor);
  const second = await page(api, { ...day(api), limit: 30, cursor: first.cursor ?? '' });
  const both = await page(api, { ...day(api), limit: 60 });
  api.check.equal(ids(second.conversations), ids(both.conversations).slice(30, 60), 'the 30 records after the first page');
});

rule('conversations.cursor.null-at-end', 'gives a string cursor while more records exist and null on the last page', async (api) => {
  const { pages } = await walkCursor(api, day(api), 100);
  api.check.that(pages.length >= 2, 'the walk has more than one page', pages.length);
  api.check.that(
    pages.slice(0, -1).every((p) => typeof p.cursor === 'string'),
    'a string cursor on every page but the last',
    pages.map((p) => p.cursor),
  );
  api.check.equal(pages.at(-1)?.cursor, null, 'cursor null on the last page');
  const single = await page(api, { ...windows(api.t).hour, client_env: 'live', limit: 1000 });
  api.check.equal(single.cursor, null, 'cursor null on a first page that is also the last');
});

rule('conversations.cursor.filters-identical', 'keeps returning only matching records along a cursor walk with the same filters', async (api) => {
  const q = { ...day(api), channel: 'VOICE-SIP' };
  const { records, pages } = await walkCursor(api, q, 40);
  api.check.that(pages.length >= 2 && records.length > 0, 'a walk of several pages', pages.length);
  const other = records.filter((r) => r.channel !== 'VOICE-SIP' || r.environment !== 'live');
  api.check.that(
    other.length === 0,
    'every record has channel VOICE-SIP and environment live',
    other.slice(0, 3).map((r) => [r.id, r.channel, r.environment]),
  );
});

rule('conversations.cursor.changed-filters', 'records what the list answers when a cursor comes with other filters', async (api) => {
  const first = await page(api, { ...day(api), channel: 'VOICE-SIP', limit: 10 });
  const res = await api.t.records.list({ ...day(api), channel: 'WEBCHAT', limit: 10, cursor: first.cursor ?? '' });
  api.observe('cursor with another channel', `${res.status} ${res.text.slice(0, 120)}`);
});

rule('conversations.cursor.malformed-400', 'answers 400 to a malformed cursor', async (api) => {
  const res = await api.t.records.list({ ...day(api), limit: 10, cursor: 'not-a-cursor!' });
  api.check.status(res, 400, 'a malformed cursor returns 400');
});

rule('conversations.cursor.wins-over-offset', 'lets the cursor decide the page when offset is sent too', async (api) => {
  const first = await page(api, { ...day(api), limit: 30 });
  const cursor = first.cursor ?? '';
  const byCursor = await page(api, { ...day(api), limit: 30, cursor });
  const both = await page(api, { ...day(api), limit: 30, cursor, offset: 90 });
  const byOffset = await page(api, { ...day(api), limit: 30, offset: 90 });
  api.check.that(
    ids(byOffset.conversations).join() !== ids(byCursor.conversations).join(),
    'offset 90 alone gives another page (so the check can tell)',
    'same page',
  );
  api.check.equal(ids(both.conversations), ids(byCursor.conversations), 'cursor and offset together give the cursor page');
});

rule('conversations.cursor.walk-complete', 'returns every record exactly once when walked by cursor to the end, as the offset walk does', async (api) => {
  const byCursor = await walkCursor(api, day(api), 50);
  const byOffset = await walkOffset(api, day(api), 50);
  const cursorIds = ids(byCursor.records);
  const offsetIds = ids(byOffset.records);
  api.check.equal(repeated(cursorIds), [], 'no record repeated in the cursor walk');
  const missing = offsetIds.filter((id) => !cursorIds.includes(id));
  api.check.equal(missing, [], 'no record of the offset walk missing from the cursor walk');
  api.check.equal(cursorIds, offsetIds, 'the same records in the same order as the offset walk');
});

rule('conversations.order.ascending', 'returns records in ascending started_at order within pages and across them', async (api) => {
  const { records, pages } = await walkCursor(api, day(api), 50);
  api.check.that(pages.length >= 2, 'a walk of several pages', pages.length);
  const order = ascending(records);
  api.check.that(
    order.ok,
    'started_at never goes down',
    order.at === undefined ? '' : records.slice((order.at ?? 1) - 1, (order.at ?? 1) + 1).map((r) => r.started_at),
  );
});
