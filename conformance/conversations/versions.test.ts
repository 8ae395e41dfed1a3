import { z } from 'zod';
import type { Response } from '../../src/clients/exchange.js';
import type { Query } from '../../src/clients/records.js';
import { IsoDateTime } from '../../src/contract/common.js';
import { comparedListFields, type ListField } from '../../src/contract/conversations/audit.js';
import { ConversationsDescriptionsV1, ConversationsListResponse, TYPICAL_V1_WHITELIST } from '../../src/contract/conversations/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { mintedRecords, page, turnsOf, windows } from './records.js';

const asRecords = (p: { conversations: unknown[] }) => p.conversations as Record<string, unknown>[];
const day = (api: CaseApi) => ({ ...windows(api.t).day, client_env: 'live' });
const chunked = (res: Response) => /chunked/i.test(res.headers['transfer-encoding'] ?? '');

/** Text fields of a record and of a turn: empty strings, never null, on v3. */
const RECORD_TEXT = [
  'id',
  'account_id',
  'project_id',
  'variant_id',
  'variant_name',
  'channel',
  'from_number',
  'to_number',
  'handoff_reason',
  'handoff_destination',
];
const TURN_TEXT = ['user_input', 'user_input_dtmf', 'agent_response'];

rule('conversations.v3.empty-strings-not-null', 'returns empty strings, never null, for empty text fields on v3', async (api) => {
  const records = asRecords(await page(api, { ...day(api), limit: 300 }));
  const nulls = [
    ...records.flatMap((r) => RECORD_TEXT.filter((k) => typeof r[k] !== 'string').map((k) => `${r.id}.${k}=${JSON.stringify(r[k])}`)),
    ...turnsOf(records).flatMap((tn) => TURN_TEXT.filter((k) => typeof tn[k] !== 'string').map((k) => `turn.${k}=${JSON.stringify(tn[k])}`)),
  ];
  api.check.that(records.length > 0, 'records to check', 0);
  api.check.that(
    records.some((r) => RECORD_TEXT.some((k) => r[k] === '')),
    'some empty text field to look at',
    'no empty text field in the sample',
  );
  api.check.equal(nulls.slice(0, 5), [], 'every text field is a string');
});

rule('conversations.v3.iso-timestamps', 'gives every v3 timestamp (started_at, turn datetimes, CALL_TURN) in ISO 8601', async (api) => {
  const records = asRecords(await page(api, { ...day(api), limit: 300 }));
  const stamps = [
    ...records.map((r) => r.started_at),
    ...turnsOf(records).flatMap((tn) => [tn.user_input_datetime, tn.agent_response_datetime]),
    ...records.flatMap((r) => ((r.metrics as { CALL_TURN?: unknown[] } | undefined)?.CALL_TURN ?? []) as unknown[]),
  ];
  api.check.that(stamps.length > records.length, 'timestamps to check', stamps.length);
  const bad = stamps.filter((s) => !IsoDateTime.safeParse(s).success);
  api.check.equal(bad.slice(0, 5), [], 'every timestamp is ISO 8601');
});

rule(
  'conversations.v3.extra-turn-fields',
  'fills latency, translated_user_input and english_agent_response on v3 turns, none of which v1 turns carry',
  async (api) => {
    const { t, check } = api;
    const q = { ...day(api), limit: 50, include_latency: true };
    const v3 = turnsOf(asRecords(await page(api, q)));
    check.that(v3.length > 0 && v3.every((tn) => typeof tn.latency === 'number'), 'v3 turns carry latency (include_latency=true)', v3[0]);
    const v1 = turnsOf(asRecords(await page(api, q, { version: 'v1' })));
    const extra = ['latency', 'translated_user_input', 'english_agent_response'];
    check.that(v1.length > 0, 'v1 turns to compare', 0);
    check.that(
      v1.every((tn) => extra.every((k) => !(k in tn))),
      'v1 turns carry none of latency, translated_user_input, english_agent_response',
      v1.find((tn) => extra.some((k) => k in tn)),
    );
    if (!t.capabilities.has('control')) return;
    const { client } = await mintedRecords(api, { translation: true });
    const translated = turnsOf(asRecords(await page(api, { ...windows(t).week, client_env: 'live', limit: 20 }, {}, client)));
    check.that(
      translated.length > 0 && translated.every((tn) => typeof tn.translated_user_input === 'string' && typeof tn.english_agent_response === 'string'),
      'with translation on, v3 turns carry translated_user_input and english_agent_response',
      translated[0],
    );
  },
);

rule('conversations.v2.same-schema', 'answers v2 with the v3 schema', async (api) => {
  const { t, check } = api;
  const q = { ...day(api), limit: 20 };
  const v2 = await t.records.list(q, { version: 'v2' });
  check.success(v2, 'v2 answers');
  check.schema(v2, ConversationsListResponse, 'the v3 list response schema');
  const v3 = await t.records.list(q);
  const keys = (res: Response) => {
    const b = res.json as { conversations?: Record<string, unknown>[] };
    return [Object.keys(b ?? {}).sort(), [...new Set((b?.conversations ?? []).flatMap((r) => Object.keys(r)))].sort()];
  };
  check.equal(keys(v2), keys(v3), 'the same response and record keys as v3');
});

rule('conversations.v1.descriptions', 'carries descriptions with a conversations object on the v1 list', async (api) => {
  const res = await api.t.records.list({ ...day(api), limit: 5 }, { version: 'v1' });
  api.check.success(res, 'v1 answers');
  const body = api.check.schema(res, z.object({ descriptions: ConversationsDescriptionsV1 }), 'descriptions: { conversations: {…} }');
  api.check.that(Object.keys(body.descriptions.conversations).length > 0, 'the conversations object describes record keys', body.descriptions);
});

rule('conversations.v1.no-cursor', 'leaves cursor out of the v1 list response', async (api) => {
  for (const q of [
    { ...day(api), limit: 5 },
    { ...windows(api.t).hour, client_env: 'live', limit: 1000 },
  ]) {
    const res = await api.t.records.list(q, { version: 'v1' });
    api.check.success(res, 'v1 answers');
    api.check.that(!('cursor' in ((res.json as object) ?? {})), 'no cursor field', Object.keys((res.json as object) ?? {}));
  }
});

rule(
  'conversations.v1.whitelisting',
  "returns only the project's configured fields on v1 once whitelisting is enabled",
  async (api) => {
    const { t, check } = api;
    const { client } = await mintedRecords(api, { enable_whitelist: true, whitelist_fields: [...TYPICAL_V1_WHITELIST] });
    const q = { ...windows(t).week, client_env: 'live', limit: 20 };
    const res = await client.list(q, { version: 'v1' });
    check.success(res, 'v1 answers');
    const records = check.schema(res, z.object({ conversations: z.array(z.record(z.string(), z.unknown())) }), 'a v1 list').conversations;
    check.that(records.length > 0, 'records to check', 0);
    const allowed = new Set<string>(TYPICAL_V1_WHITELIST);
    const extra = records.flatMap((r) => Object.keys(r).filter((k) => !allowed.has(k)));
    check.equal([...new Set(extra)], [], `only ${TYPICAL_V1_WHITELIST.join(', ')}`);
    const v3 = asRecords(await page(api, q, {}, client));
    check.that(
      v3.every((r) => 'turns' in r && 'channel' in r),
      'v3 is not whitelisted',
      Object.keys(v3[0] ?? {}),
    );
  },
  { needs: ['control'] },
);

rule('conversations.v1.available', 'still serves the v1 list', async (api) => {
  api.check.success(await api.t.records.list({ ...day(api), limit: 5 }, { version: 'v1' }), 'v1 answers 2xx');
});

rule(
  'conversations.streaming.chunked-v2-v3',
  'sends the same JSON body with chunked transfer encoding on v2 and v3 when streaming is enabled, cursor included',
  async (api) => {
    const { t, check } = api;
    const { client } = await mintedRecords(api, { streaming: true });
    const q = { ...windows(t).week, client_env: 'live', limit: 20 };
    for (const version of ['v3', 'v2']) {
      const res = await client.list(q, { version });
      check.success(res, `${version} answers`);
      check.that(
        chunked(res),
        `${version} is sent with Transfer-Encoding: chunked`,
        res.headers['transfer-encoding'] ?? `content-length ${res.headers['content-length']}`,
      );
      const body = check.schema(res, ConversationsListResponse, 'the v3 list response schema');
      check.that(typeof body.cursor === 'string', 'the streamed body exposes the cursor', body.cursor);
    }
  },
  { needs: ['control'] },
);

rule(
  'conversations.streaming.not-v1',
  'does not chunk the v1 response even with streaming enabled',
  async (api) => {
    const { client } = await mintedRecords(api, { streaming: true });
    const res = await client.list({ ...windows(api.t).week, client_env: 'live', limit: 20 }, { version: 'v1' });
    api.check.success(res, 'v1 answers');
    api.check.that(!chunked(res), 'no chunked transfer encoding on v1', res.headers['transfer-encoding']);
  },
  { needs: ['control'] },
);

rule('conversations.streaming.enablement', 'records whether the list streams for the profile project', async (api) => {
  const res = await api.t.records.list({ ...day(api), limit: 5 });
  api.observe('transfer-encoding of a v3 list', res.headers['transfer-encoding'] ?? '(none)');
  api.observe(
    'enablement',
    api.t.capabilities.has('control') ? 'reference target: a project setting, switched through its control surface' : 'not known for this target',
  );
});

/** One query per list field, built from a v3 record of the day so that each selects something. */
function fieldQueries(api: CaseApi, r: Record<string, unknown>): Record<Exclude<ListField, 'cursor'>, Query> {
  const w = windows(api.t);
  const base = { ...w.day, client_env: 'live', limit: 50 };
  const said = turnsOf([r])
    .map((tn) => String(tn.user_input ?? ''))
    .join(' ');
  const word = said.split(/\W+/).find((x) => x.length >= 4) ?? 'booking';
  return {
    start_time: { ...base, start_time: w.hour.start_time },
    end_time: { ...base, end_time: w.hour.end_time },
    query_type: { ...base, query_type: 'transcript', query: word },
    query: { ...base, query_type: 'transcript', query: word },
    turn_type: { ...base, query_type: 'transcript', query: word, turn_type: 'user' },
    sample: { ...base, sample: 'random' },
    client_env: { ...base, client_env: 'sandbox' },
    channel: { ...base, channel: String(r.channel) },
    variant_id: { ...base, variant_id: String(r.variant_id) },
    variant_name: { ...base, variant_name: String(r.variant_name) },
    in_progress: { ...base, in_progress: false },
    limit: { ...base, limit: 3 },
    offset: { ...base, limit: 5, offset: 2 },
    include_latency: { ...base, include_latency: true },
    include_context_state: { ...base, include_context_state: true },
    include_turn_metadata: { ...base, include_turn_metadata: true },
  };
}

const idsIn = (p: { conversations: unknown[] }) => asRecords(p).map((r) => r.id);

for (const version of ['v2', 'v1'] as const) {
  rule(
    'conversations.path.query-alike-across-versions',
    `selects the same records on ${version} as on v3 for each documented query parameter`,
    async (api) => {
      const { check } = api;
      const sample = asRecords(await page(api, { ...day(api), limit: 50 })).find((r) => turnsOf([r]).length > 0);
      check.that(sample !== undefined, 'a v3 record of the day with turns, to build the queries from', 'none');
      const queries = fieldQueries(api, sample as Record<string, unknown>);
      const empty: string[] = [];
      for (const field of comparedListFields(version)) {
        if (field === 'cursor') {
          const first = { ...day(api), limit: 3 };
          const [mine, v3] = [await page(api, first, { version }), await page(api, first)];
          const [next, v3next] = [
            await page(api, { ...first, cursor: mine.cursor ?? '' }, { version }),
            await page(api, { ...first, cursor: v3.cursor ?? '' }),
          ];
          check.equal(idsIn(next), idsIn(v3next), `the page after ${version}'s cursor holds the records of the page after v3's`);
          continue;
        }
        const q = queries[field];
        const v3 = idsIn(await page(api, q));
        check.equal(idsIn(await page(api, q, { version })), v3, `${field}: ${version} selects the records v3 selects`);
        if (v3.length === 0) empty.push(field);
      }
      // An empty selection compares nothing: say which queries found no traffic on this target.
      api.observe('queries that selected nothing on v3', empty);
    },
    { operation: `GET /${version}/{account_id}/{project_id}/conversations` },
  );
}
