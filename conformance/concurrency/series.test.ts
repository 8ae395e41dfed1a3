import { z } from 'zod';
import type { Response } from '../../src/clients/exchange.js';
import {
  CONCURRENCY_WINDOW_MS,
  ConcurrencyErrorBody,
  ConcurrencyResponse,
  ceilToWindow,
  floorToWindow,
  MAX_SPAN_MS,
} from '../../src/contract/concurrency/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { mintedRecords, walkOffset, windows } from '../conversations/records.js';

const MINUTE_MS = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const quiet = (api: CaseApi) => windows(api.t).quiet;

/** A successful series, parsed with the documented schema. */
async function series(api: CaseApi, query: Record<string, string | undefined>) {
  const res = await api.t.records.concurrency(query);
  api.check.status(res, 200, 'the series answers 200');
  return api.check.schema(res, ConcurrencyResponse, 'account_id, project_id and intervals ascending by time').intervals;
}

const counts = (intervals: readonly { max_concurrent_conversations: number }[]) => intervals.map((i) => i.max_concurrent_conversations);

/** An error answer with an error_message body. */
function errorBody(api: CaseApi, res: Response, documented: string): void {
  api.check.schema(res, ConcurrencyErrorBody, `${documented}, with an error_message body`);
}

/**
 * The documented meaning of max_concurrent_conversations, computed from the conversations list:
 * the peak number of records active at once in each window (active from started_at for
 * total_duration seconds).
 */
async function expectedPeaks(api: CaseApi, from: number, to: number, filter: Record<string, string> = {}): Promise<number[]> {
  // Conversations last minutes: an hour before the window catches every one still active at its start.
  const { records } = await walkOffset(api, { start_time: iso(from - 60 * MINUTE_MS), end_time: iso(to), client_env: 'live', ...filter }, 1000);
  const spans = records.map((r) => {
    const start = Date.parse(r.started_at);
    return { start, end: start + Math.round(Number(r.total_duration) * 1000) };
  });
  const out: number[] = [];
  for (let w = from; w < to; w += CONCURRENCY_WINDOW_MS) {
    const instants = [w, ...spans.map((s) => s.start).filter((s) => s > w && s < w + CONCURRENCY_WINDOW_MS)];
    out.push(Math.max(...instants.map((at) => spans.filter((s) => s.start <= at && at < s.end).length)));
  }
  return out;
}

rule('concurrency.path.v1', 'serves the series at /v1/{account_id}/{project_id}/conversations/concurrency with slug or prefixed ids', async (api) => {
  const { t, check } = api;
  check.success(await t.records.concurrency(quiet(api)), 'the slug form answers 2xx');
  check.that(t.profile.account_id_alt !== undefined && t.profile.project_id_alt !== undefined, 'the profile names the prefixed ids', 'missing');
  check.success(
    await t.records.concurrency(quiet(api), { accountId: t.profile.account_id_alt ?? '', projectId: t.profile.project_id_alt ?? '' }),
    'the prefixed form answers 2xx',
  );
});

rule('concurrency.response.fields', 'answers account_id, project_id and intervals of time and integer max_concurrent_conversations', async (api) => {
  const intervals = await series(api, quiet(api));
  api.check.that(intervals.length > 0, 'intervals to check', 0);
});

rule('concurrency.window.five-minute-marks', 'gives every interval time in UTC ISO 8601 on a 5-minute mark', async (api) => {
  const start = Date.parse(quiet(api).start_time) + 2 * MINUTE_MS + 30_000;
  const intervals = await series(api, { start_time: iso(start), end_time: iso(start + 47 * MINUTE_MS) });
  const off = intervals.filter((i) => !/(Z|[+-]00:?00)$/.test(i.time) || Date.parse(i.time) % CONCURRENCY_WINDOW_MS !== 0);
  api.check.that(
    intervals.length > 0 && off.length === 0,
    'every time is UTC and on a 5-minute mark',
    off.map((i) => i.time),
  );
});

rule('concurrency.window.start-rounded-down', 'rounds start_time down: the window holding it is the first one', async (api) => {
  const start = Date.parse(quiet(api).start_time) + 7 * MINUTE_MS + 30_000;
  const intervals = await series(api, { start_time: iso(start), end_time: iso(start + 30 * MINUTE_MS) });
  const times = intervals.map((i) => Date.parse(i.time));
  api.check.that(
    times.every((x) => x >= floorToWindow(start)),
    'no interval before the rounded-down start',
    intervals[0]?.time,
  );
  api.check.equal(intervals[0]?.time, iso(floorToWindow(start)), `the first interval is ${iso(floorToWindow(start))}, the window holding start_time`);
});

rule('concurrency.window.end-rounded-up', 'rounds end_time up: the window holding it is the last one', async (api) => {
  const from = Date.parse(quiet(api).start_time);
  const end = from + 41 * MINUTE_MS;
  const intervals = await series(api, { start_time: iso(from), end_time: iso(end) });
  const times = intervals.map((i) => Date.parse(i.time));
  api.check.that(
    times.every((x) => x < ceilToWindow(end)),
    'no interval at or after the rounded-up end',
    intervals.at(-1)?.time,
  );
  api.check.equal(intervals.at(-1)?.time, iso(floorToWindow(end)), `the last interval is ${iso(floorToWindow(end))}, the window holding end_time`);
});

rule('concurrency.window.max-one-week', 'answers 400 with error_message when start_time and end_time are more than a week apart', async (api) => {
  const from = Date.parse(quiet(api).start_time);
  const res = await api.t.records.concurrency({ start_time: iso(from), end_time: iso(from + MAX_SPAN_MS + 60 * MINUTE_MS) });
  api.check.status(res, 400, 'a week and an hour is refused with 400');
  errorBody(api, res, 'the 400');
});

rule('concurrency.window.one-week-accepted', 'accepts start_time and end_time less than a week apart', async (api) => {
  const from = Date.parse(quiet(api).start_time);
  api.check.success(
    await api.t.records.concurrency({ start_time: iso(from), end_time: iso(from + MAX_SPAN_MS - MINUTE_MS) }),
    'six days 23:59 apart is accepted',
  );
});

rule('concurrency.window.span-boundary', 'records whether exactly one week apart, off the 5-minute marks, is accepted', async (api) => {
  const from = Date.parse(quiet(api).start_time) + 2 * MINUTE_MS;
  const res = await api.t.records.concurrency({ start_time: iso(from), end_time: iso(from + MAX_SPAN_MS) });
  api.observe('exactly one week, start off the mark', `${res.status} ${res.status >= 400 ? res.text.slice(0, 120) : ''}`);
});

rule('concurrency.window.ascending', 'lists intervals in ascending order of time', async (api) => {
  const intervals = await series(api, quiet(api));
  const times = intervals.map((i) => Date.parse(i.time));
  api.check.that(
    times.length > 1 && times.every((x, i) => i === 0 || x > (times[i - 1] as number)),
    'each time later than the one before',
    intervals.slice(0, 3).map((i) => i.time),
  );
});

rule('concurrency.window.empty-windows', 'records whether windows without conversations are listed', async (api) => {
  const day = windows(api.t).day;
  const night = Date.parse(day.start_time) + 3 * 60 * MINUTE_MS;
  const intervals = await series(api, { start_time: iso(night), end_time: iso(night + 60 * MINUTE_MS) });
  api.observe('windows in one hour / with 0', [intervals.length, intervals.filter((i) => i.max_concurrent_conversations === 0).length]);
});

rule('concurrency.interval.peak-after-filters', 'gives the peak of simultaneously active conversations per window, as the records show it', async (api) => {
  const q = quiet(api);
  const got = counts(await series(api, q));
  const expected = await expectedPeaks(api, Date.parse(q.start_time), Date.parse(q.end_time));
  api.check.that(
    expected.some((n) => n > 0),
    'the window holds conversations',
    expected,
  );
  api.check.equal(got, expected, 'the peak per window, computed from the conversations list');
});

rule('concurrency.params.start-end-required', 'answers 400 with error_message when start_time or end_time is missing', async (api) => {
  const q = quiet(api);
  for (const [why, query] of [
    ['without start_time', { end_time: q.end_time }],
    ['without end_time', { start_time: q.start_time }],
    ['without either', {}],
  ] as const) {
    const res = await api.t.records.concurrency(query);
    api.check.status(res, 400, `${why}: 400`);
    errorBody(api, res, 'the 400');
  }
});

rule('concurrency.params.bad-time-range-400', 'answers 400 with error_message to a time that is not ISO 8601 or an end before the start', async (api) => {
  const q = quiet(api);
  for (const [why, query] of [
    ['start_time not ISO 8601', { start_time: 'yesterday', end_time: q.end_time }],
    ['end_time not ISO 8601', { start_time: q.start_time, end_time: '2026-13-45' }],
    ['end_time before start_time', { start_time: q.end_time, end_time: q.start_time }],
  ] as const) {
    const res = await api.t.records.concurrency(query);
    api.check.status(res, 400, `${why}: 400`);
    errorBody(api, res, 'the 400');
  }
});

rule('concurrency.filter.client-env-default-live', 'counts only live conversations without client_env and accepts each environment', async (api) => {
  const { check } = api;
  const q = quiet(api);
  const unset = counts(await series(api, q));
  const live = counts(await series(api, { ...q, client_env: 'live' }));
  check.equal(unset, live, 'the same series as client_env=live');
  const sandbox = counts(await series(api, { ...q, client_env: 'sandbox' }));
  await series(api, { ...q, client_env: 'pre-release' });
  check.that(JSON.stringify(sandbox) !== JSON.stringify(live), 'sandbox counts differ from live ones (so the default is not everything)', sandbox);
});

rule('concurrency.filter.variant-xor', 'answers 400 when both variant_id and variant_name are sent', async (api) => {
  const res = await api.t.records.concurrency({ ...quiet(api), variant_id: 'VARIANT-main', variant_name: 'Main site' });
  api.check.status(res, 400, 'both variant filters: 400');
});

rule('concurrency.filter.variant', 'counts only conversations of the variant named by variant_id or variant_name', async (api) => {
  const { check } = api;
  const q = quiet(api);
  const { records } = await walkOffset(api, { ...q, client_env: 'live' }, 1000);
  const variant = records.map((r) => ({ id: String(r.variant_id), name: String(r.variant_name) })).at(-1);
  check.that(variant !== undefined, 'a variant with conversations in the window', records.length);
  const v = variant as { id: string; name: string };
  const byId = counts(await series(api, { ...q, variant_id: v.id }));
  const expected = await expectedPeaks(api, Date.parse(q.start_time), Date.parse(q.end_time), { variant_id: v.id });
  check.equal(byId, expected, `the peaks of ${v.id}'s conversations`);
  const byName = counts(await series(api, { ...q, variant_name: v.name }));
  check.equal(byName, byId, 'variant_name gives the same series as its variant_id');
});

rule('concurrency.filter.language-phone', 'accepts language and phone_number and counts only matching conversations', async (api) => {
  const { check } = api;
  const q = quiet(api);
  const all = counts(await series(api, q));
  const none = [await series(api, { ...q, language: 'xx-XX' }), await series(api, { ...q, phone_number: '+10000000000' })];
  check.that(
    none.every((s) => counts(s).every((n) => n === 0)),
    'a language and a phone number no conversation has count nothing',
    none.map(counts),
  );
  const { records } = await walkOffset(api, { ...q, client_env: 'live' }, 1000);
  const phone = records.map((r) => r.to_number).find((n) => typeof n === 'string' && n !== '');
  check.that(phone !== undefined, 'a conversation with a phone number in the window', records.length);
  const byPhone = counts(await series(api, { ...q, phone_number: String(phone) }));
  check.that(
    byPhone.some((n) => n > 0) && byPhone.every((n, i) => n <= (all[i] ?? 0)),
    `phone_number=${phone} counts some conversations, never more than all`,
    byPhone,
  );
});

rule('concurrency.slice-by.variant-works', 'answers slice_by=variant with intervals carrying variant_id and variant_name', async (api) => {
  const res = await api.t.records.concurrency({ ...quiet(api), slice_by: 'variant' });
  api.check.status(res, 200, 'slice_by=variant answers 200');
  const { intervals } = api.check.schema(res, ConcurrencyResponse, 'the series schema');
  const Sliced = z.object({ variant_id: z.string(), variant_name: z.string() });
  api.check.that(intervals.length > 0 && intervals.every((i) => Sliced.safeParse(i).success), 'every interval names its variant', intervals[0]);
});

rule('concurrency.slice-by.language-501', 'answers slice_by=language with 501 and error_message', async (api) => {
  const res = await api.t.records.concurrency({ ...quiet(api), slice_by: 'language' });
  api.check.status(res, 501, 'slice_by=language: 501');
  errorBody(api, res, 'the 501');
});

rule('concurrency.slice-by.phone-number-501', 'answers slice_by=phone_number with 501 and error_message', async (api) => {
  const res = await api.t.records.concurrency({ ...quiet(api), slice_by: 'phone_number' });
  api.check.status(res, 501, 'slice_by=phone_number: 501');
  errorBody(api, res, 'the 501');
});

rule('concurrency.errors.error-message-body', 'carries a string error_message in every error body', async (api) => {
  const { t } = api;
  const q = quiet(api);
  const answers = [
    await t.records.concurrency({ start_time: q.start_time }),
    await t.records.concurrency(q, { apiKey: null }),
    await t.records.concurrency(q, { projectId: 'dialtone-no-such-project' }),
    await t.records.concurrency({ ...q, slice_by: 'phone_number' }),
  ];
  for (const res of answers) {
    api.check.that(res.status >= 400, 'an error', res.status);
    errorBody(api, res, `the ${res.status}`);
  }
});

rule('concurrency.errors.401-403-key', 'answers 401 or 403 to a missing, invalid or unauthorised x-api-key', async (api) => {
  const { t, check } = api;
  const q = quiet(api);
  const other = t.records.secret('conversations_other_project_key');
  check.that(other !== undefined, 'the profile names conversations_other_project_key', 'missing');
  for (const [why, apiKey] of [
    ['missing', null],
    ['invalid', 'dialtone-not-a-real-key'],
    ['unauthorised (another project)', other ?? ''],
  ] as const) {
    const res = await t.records.concurrency(q, { apiKey });
    check.that(res.status === 401 || res.status === 403, `a ${why} key: 401 or 403`, res.status);
  }
});

rule('concurrency.errors.404-not-found', 'answers 404 for an account or project that does not exist', async (api) => {
  const res = await api.t.records.concurrency(quiet(api), { projectId: 'dialtone-no-such-project' });
  api.check.status(res, 404, 'an unknown project: 404');
  const other = await api.t.records.concurrency(quiet(api), { accountId: 'dialtone-no-such-account' });
  api.check.status(other, 404, 'an unknown account: 404');
});

rule(
  'concurrency.errors.500-internal',
  'answers 500 with error_message on an internal error',
  async (api) => {
    const { client } = await mintedRecords(api, { internal_error: true });
    const res = await client.concurrency(quiet(api));
    api.check.status(res, 500, 'an internal error: 500');
    errorBody(api, res, 'the 500');
  },
  { needs: ['control'] },
);

rule(
  'concurrency.auth.analytics-permission',
  'refuses a key not authorised for this project’s conversation and analytics data with 401 or 403',
  async (api) => {
    const other = api.t.records.secret('conversations_other_project_key');
    api.check.that(other !== undefined, 'the profile names conversations_other_project_key', 'missing');
    const res = await api.t.records.concurrency(quiet(api), { apiKey: other ?? '' });
    api.check.that(res.status === 401 || res.status === 403, 'a key of another project: 401 or 403', res.status);
    errorBody(api, res, 'the refusal');
  },
);

rule('concurrency.errors.other-parameters', 'records what other parameter violations are answered', async (api) => {
  const q = quiet(api);
  const out: Record<string, number> = {};
  for (const [why, query] of Object.entries({
    'slice_by outside the enum': { ...q, slice_by: 'channel' },
    'client_env outside the enum': { ...q, client_env: 'staging' },
  })) {
    out[why] = (await api.t.records.concurrency(query)).status;
  }
  api.observe('statuses', out);
});
