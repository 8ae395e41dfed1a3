import { type CaseApi, rule } from '../../src/suite/case.js';
import { ids, oneSidedWord, page, saysOn, walkOffset, windows } from './records.js';

const asRecords = (p: { conversations: unknown[] }) => p.conversations as Record<string, unknown>[];
const hour = (api: CaseApi) => ({ ...windows(api.t).hour, client_env: 'live' });

/** A word the agent says in the hour's records, for searches that must match something. */
async function agentWord(api: CaseApi): Promise<{ id: string; word: string }> {
  const records = asRecords(await page(api, { ...hour(api), limit: 1000 }));
  const found = oneSidedWord(records, 'agent');
  api.check.that(found !== undefined, 'a record with agent text to search for', records.length);
  return found as { id: string; word: string };
}

rule('conversations.retrieval.one-mode', 'rejects a request that sends both query_type and sample', async (api) => {
  const res = await api.t.records.list({ ...hour(api), query_type: 'transcript', query: 'table', sample: 'random' });
  api.check.rejected(res, 'query_type with sample is not a valid request');
});

rule('conversations.retrieval.none-returns-all', 'returns every record matching the filters when no retrieval mode is sent', async (api) => {
  const { check } = api;
  const all = ids((await walkOffset(api, hour(api), 100)).records);
  check.that(all.length > 0, 'the hour holds records', 0);
  const { word } = await agentWord(api);
  const searched = ids(asRecords(await page(api, { ...hour(api), limit: 1000, query_type: 'transcript', query: word })));
  const sampled = ids(asRecords(await page(api, { ...hour(api), limit: 1000, sample: 'random' })));
  const missing = [...searched, ...sampled].filter((id) => !all.includes(id));
  check.that(missing.length === 0, 'every record a search or a sample finds is among all the records', missing.slice(0, 3));
  check.that(all.length >= searched.length && searched.length > 0, 'all the records are more than one search finds', [all.length, searched.length]);
});

rule('conversations.retrieval.query-required', 'rejects query_type without query', async (api) => {
  for (const queryType of ['transcript', 'semantic']) {
    api.check.rejected(await api.t.records.list({ ...hour(api), query_type: queryType }), `query_type=${queryType} without query is rejected`);
  }
});

rule('conversations.retrieval.sample-no-query', 'answers sample=random without any query', async (api) => {
  const res = await api.t.records.list({ ...hour(api), sample: 'random' });
  api.check.success(res, 'sample=random needs no query');
  const withQuery = await api.t.records.list({ ...hour(api), sample: 'random', query: 'table' });
  api.observe('sample=random with a query', withQuery.status);
});

rule('conversations.retrieval.time-range-required', 'requires start_time and end_time with a retrieval mode and not without one', async (api) => {
  const { t, check } = api;
  check.rejected(
    await t.records.list({ client_env: 'live', query_type: 'transcript', query: 'table' }),
    'a transcript search without a time range is rejected',
  );
  check.rejected(await t.records.list({ client_env: 'live', sample: 'random' }), 'a sample without a time range is rejected');
  check.rejected(
    await t.records.list({ client_env: 'live', start_time: windows(t).hour.start_time, sample: 'random' }),
    'a sample with only start_time is rejected',
  );
  check.success(await t.records.list({ client_env: 'live', limit: 5 }), 'without a retrieval mode no time range is needed');
});

rule('conversations.retrieval.query-type-enum', 'accepts query_type transcript and semantic, and sample random, each with what it needs', async (api) => {
  const { word } = await agentWord(api);
  api.check.success(await api.t.records.list({ ...hour(api), query_type: 'transcript', query: word }), 'query_type=transcript');
  api.check.success(await api.t.records.list({ ...hour(api), query_type: 'semantic', query: word }), 'query_type=semantic');
  api.check.success(await api.t.records.list({ ...hour(api), sample: 'random' }), 'sample=random');
});

rule('conversations.retrieval.transcript-matches', 'returns only conversations whose transcript contains the query text', async (api) => {
  const { id, word } = await agentWord(api);
  const found = asRecords(await page(api, { ...hour(api), limit: 1000, query_type: 'transcript', query: word }));
  api.check.that(ids(found).includes(id), `the conversation that says "${word}" is found`, found.length);
  api.check.that(
    found.every((r) => saysOn(r, word, 'both')),
    `every match says "${word}"`,
    found.find((r) => !saysOn(r, word, 'both'))?.id,
  );
});

rule('conversations.retrieval.sample-subset', 'draws sample=random from the records that match the filters and time range', async (api) => {
  const { check } = api;
  const all = ids((await walkOffset(api, hour(api), 100)).records);
  const sample = asRecords(await page(api, { ...hour(api), limit: 5, sample: 'random' }));
  check.that(sample.length > 0, 'the sample holds records', 0);
  const foreign = sample.filter((r) => !all.includes(String(r.id)) || r.environment !== 'live');
  check.that(
    foreign.length === 0,
    'every sampled record matches the filters and the time range',
    foreign.map((r) => r.id),
  );
});

rule('conversations.retrieval.match-semantics', 'records how searches match and how large a sample is', async (api) => {
  const { word } = await agentWord(api);
  const count = async (q: Record<string, string | number>) => asRecords(await page(api, { ...hour(api), limit: 1000, ...q })).length;
  api.observe('transcript matches (exact / upper case / first 4 letters)', [
    await count({ query_type: 'transcript', query: word }),
    await count({ query_type: 'transcript', query: word.toUpperCase() }),
    await count({ query_type: 'transcript', query: word.slice(0, 4) }),
  ]);
  api.observe('semantic matches', await count({ query_type: 'semantic', query: word }));
  const sample = await page(api, { ...hour(api), sample: 'random' });
  api.observe('sample size without limit', sample.conversations.length);
});

rule('conversations.errors.violations-not-success', 'does not answer success to list requests that break a parameter rule', async (api) => {
  const h = hour(api);
  const violations: Record<string, Record<string, string | number>> = {
    'query_type with sample': { ...h, query_type: 'transcript', query: 'x', sample: 'random' },
    'query_type without query': { ...h, query_type: 'transcript' },
    'both variant filters': { ...h, variant_id: 'a', variant_name: 'b' },
    'turn_type without transcript search': { ...h, turn_type: 'user' },
    'retrieval mode without time range': { query_type: 'transcript', query: 'x' },
    'client_env outside the enum': { ...h, client_env: 'staging' },
    'negative offset': { ...h, offset: -1 },
  };
  for (const [name, q] of Object.entries(violations))
    api.check.notSuccess(await api.t.records.list(q), `a list request with ${name} is an error, not a success`);
});

rule('conversations.errors.other-violations-status', 'records the status of list requests that break a parameter rule', async (api) => {
  const { t } = api;
  const h = hour(api);
  const cases: Record<string, Record<string, string | number>> = {
    'query_type with sample': { ...h, query_type: 'transcript', query: 'x', sample: 'random' },
    'query_type without query': { ...h, query_type: 'transcript' },
    'both variant filters': { ...h, variant_id: 'a', variant_name: 'b' },
    'turn_type without transcript search': { ...h, turn_type: 'user' },
    'retrieval mode without time range': { query_type: 'transcript', query: 'x' },
    'client_env outside the enum': { ...h, client_env: 'staging' },
    'negative offset': { ...h, offset: -1 },
  };
  const out: Record<string, number> = {};
  for (const [name, q] of Object.entries(cases)) out[name] = (await t.records.list(q)).status;
  api.observe('statuses', out);
});
