import { ClientEnv } from '../../src/contract/common.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { chatConversation, ids, marker, mintedRecords, oneSidedWord, ownRecords, page, saysOn, turnsOf, windows } from './records.js';

const asRecords = (p: { conversations: unknown[] }) => p.conversations as Record<string, unknown>[];

rule('conversations.filter.client-env-default-live', 'returns only live records when client_env is left out', async (api) => {
  const { t, check } = api;
  const day = windows(t).day;
  const unset = asRecords(await page(api, { ...day, limit: 1000 }));
  const live = asRecords(await page(api, { ...day, client_env: 'live', limit: 1000 }));
  check.that(unset.length > 0, 'the window holds records', 0);
  check.that(
    unset.every((r) => r.environment === 'live'),
    'every record is live',
    [...new Set(unset.map((r) => r.environment))],
  );
  check.equal(ids(unset), ids(live), 'the same records as client_env=live');
});

rule('conversations.filter.client-env-values', 'accepts sandbox, pre-release and live and returns only records of that environment', async (api) => {
  const { t, check } = api;
  let total = 0;
  for (const env of ClientEnv.options) {
    const records = asRecords(await page(api, { ...windows(t).day, client_env: env, limit: 1000 }));
    total += records.length;
    check.that(
      records.every((r) => r.environment === env),
      `client_env=${env} returns only ${env} records`,
      [...new Set(records.map((r) => r.environment))],
    );
  }
  check.that(total > 0, 'the window holds records', 0);
});

/** One conversation left open and one closed, both made by the case. */
async function openAndClosed(api: CaseApi) {
  const open = await chatConversation(api, `Still talking ${marker()}`);
  const closed = await chatConversation(api, `All done ${marker()}`);
  api.check.success(await api.t.chat.close({ conversation_id: closed }), 'the second conversation is closed');
  return { open, closed };
}

rule('conversations.filter.in-progress-default-all', 'returns active and finished conversations alike without in_progress', async (api) => {
  const { open, closed } = await openAndClosed(api);
  const found = await ownRecords(api, [open, closed]);
  api.check.that(found.has(open) && found.has(closed), 'both the open and the closed conversation are listed', [...found.keys()]);
});

rule('conversations.filter.in-progress-selects', 'returns only active records for in_progress=true and only finished ones for false', async (api) => {
  const { check } = api;
  const { open, closed } = await openAndClosed(api);
  const active = await ownRecords(api, [open, closed], { in_progress: true });
  check.that(active.has(open) && !active.has(closed), 'in_progress=true lists the open conversation, not the closed one', [...active.keys()]);
  const finished = await ownRecords(api, [open, closed], { in_progress: false });
  check.that(finished.has(closed) && !finished.has(open), 'in_progress=false lists the closed conversation, not the open one', [...finished.keys()]);
  const sample = asRecords(await page(api, { ...windows(api.t).week, client_env: 'live', in_progress: true, limit: 1000 }));
  check.that(
    sample.every((r) => r.in_progress === true),
    'every record of in_progress=true is active',
    sample.find((r) => r.in_progress !== true)?.id,
  );
});

rule('conversations.filter.time-range', 'bounds started_at by start_time and end_time, leaving an omitted side open', async (api) => {
  const { t, check } = api;
  const { hour } = windows(t);
  const [from, to] = [Date.parse(hour.start_time), Date.parse(hour.end_time)];
  const at = (r: Record<string, unknown>) => Date.parse(String(r.started_at));
  const both = asRecords(await page(api, { ...hour, client_env: 'live', limit: 1000 }));
  check.that(both.length > 0, 'the hour holds records', 0);
  check.that(
    both.every((r) => at(r) >= from && at(r) <= to),
    'every record started within the bounds',
    both.find((r) => at(r) < from || at(r) > to)?.started_at,
  );
  const startOnly = asRecords(await page(api, { start_time: hour.start_time, client_env: 'live', limit: 1000 }));
  check.that(
    startOnly.every((r) => at(r) >= from),
    'start_time alone: none earlier',
    startOnly.find((r) => at(r) < from)?.started_at,
  );
  check.that(
    startOnly.some((r) => at(r) > to),
    'start_time alone: the end is open (later records come back)',
    startOnly.at(-1)?.started_at,
  );
  const endOnly = asRecords(await page(api, { end_time: hour.end_time, client_env: 'live', limit: 1000 }));
  check.that(
    endOnly.every((r) => at(r) <= to),
    'end_time alone: none later',
    endOnly.find((r) => at(r) > to)?.started_at,
  );
  check.that(
    endOnly.some((r) => at(r) < from),
    'end_time alone: the start is open (earlier records come back)',
    endOnly[0]?.started_at,
  );
});

rule('conversations.filter.channel-repeatable', 'returns records of any of several channel values when channel is repeated', async (api) => {
  const { t, check } = api;
  const day = { ...windows(t).day, client_env: 'live', limit: 1000 };
  const all = asRecords(await page(api, day));
  const counts = new Map<unknown, number>();
  for (const r of all) counts.set(r.channel, (counts.get(r.channel) ?? 0) + 1);
  const two = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([c]) => String(c));
  check.that(two.length === 2 && counts.size > 2, 'the window holds more than two channels', [...counts.keys()]);
  const res = await page(api, { ...day, channel: two });
  check.that(res.res.exchange.url.split('channel=').length === 3, 'channel is sent twice', res.res.exchange.url);
  const got = asRecords(res);
  check.that(
    got.every((r) => two.includes(String(r.channel))),
    `only ${two.join(' or ')}`,
    [...new Set(got.map((r) => r.channel))],
  );
  check.that(
    two.every((c) => got.some((r) => r.channel === c)),
    'records of both channels',
    [...new Set(got.map((r) => r.channel))],
  );
});

/** The variants of the day's records, most common first. */
async function variantsOf(api: CaseApi) {
  const all = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 1000 }));
  const variants = new Map<string, string>();
  for (const r of all) variants.set(String(r.variant_id), String(r.variant_name));
  api.check.that(variants.size > 1, 'the window holds more than one variant', [...variants.keys()]);
  return variants;
}

rule('conversations.filter.variant-id', 'returns only records of the variant named by variant_id', async (api) => {
  const variants = await variantsOf(api);
  const id = [...variants.keys()].at(-1) as string;
  const got = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 1000, variant_id: id }));
  api.check.that(got.length > 0, `records of ${id}`, 0);
  api.check.that(
    got.every((r) => r.variant_id === id),
    `only variant ${id}`,
    [...new Set(got.map((r) => r.variant_id))],
  );
});

rule('conversations.filter.variant-name-encoded', 'returns only records of the variant named by variant_name, spaces sent as %20', async (api) => {
  const { check } = api;
  const variants = await variantsOf(api);
  const name = [...variants.values()].find((n) => n.includes(' ')) ?? ([...variants.values()].at(-1) as string);
  const res = await page(api, { ...windows(api.t).day, client_env: 'live', limit: 1000, variant_name: name });
  if (name.includes(' ')) check.that(res.res.exchange.url.includes(encodeURIComponent(name)), 'the space is sent as %20', res.res.exchange.url);
  const got = asRecords(res);
  check.that(got.length > 0, `records of ${name}`, 0);
  check.that(
    got.every((r) => r.variant_name === name),
    `only variant ${name}`,
    [...new Set(got.map((r) => r.variant_name))],
  );
});

rule('conversations.filter.variant-id-xor-name', 'rejects a request with both variant_id and variant_name', async (api) => {
  const variants = await variantsOf(api);
  const [[id, name]] = [...variants.entries()] as [[string, string]];
  const res = await api.t.records.list({ ...windows(api.t).day, client_env: 'live', variant_id: id, variant_name: name });
  api.check.rejected(res, 'both variant filters is not a valid request');
});

/** The day's records and one-sided words: one said only by the agent, one only by the caller. */
async function transcriptWords(api: CaseApi) {
  const records = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 1000 }));
  const agent = oneSidedWord(records, 'agent');
  const user = oneSidedWord(records, 'user');
  api.check.that(agent !== undefined && user !== undefined, 'records with words on one side only', turnsOf(records).length);
  return { agent: agent as { id: string; word: string }, user: user as { id: string; word: string } };
}

const search = (api: CaseApi, query: string, turnType?: 'user' | 'agent') =>
  page(api, { ...windows(api.t).day, client_env: 'live', limit: 1000, query_type: 'transcript', query, turn_type: turnType });

rule('conversations.filter.turn-type-default-both', 'matches both the user and the agent side in a transcript search without turn_type', async (api) => {
  const { agent, user } = await transcriptWords(api);
  const byAgent = ids(asRecords(await search(api, agent.word)));
  api.check.that(byAgent.includes(agent.id), `a word only the agent said ("${agent.word}") finds its conversation`, byAgent.length);
  const byUser = ids(asRecords(await search(api, user.word)));
  api.check.that(byUser.includes(user.id), `a word only the caller said ("${user.word}") finds its conversation`, byUser.length);
});

rule('conversations.filter.turn-type-values', 'matches only user_input for turn_type=user and only agent_response for turn_type=agent', async (api) => {
  const { check } = api;
  const { agent } = await transcriptWords(api);
  const onAgent = asRecords(await search(api, agent.word, 'agent'));
  check.that(ids(onAgent).includes(agent.id), `turn_type=agent finds the agent's "${agent.word}"`, onAgent.length);
  check.that(
    onAgent.every((r) => saysOn(r, agent.word, 'agent')),
    'every match has the word in an agent_response',
    onAgent.find((r) => !saysOn(r, agent.word, 'agent'))?.id,
  );
  const onUser = asRecords(await search(api, agent.word, 'user'));
  check.that(!ids(onUser).includes(agent.id), `turn_type=user does not find "${agent.word}", which only the agent said`, agent.id);
  check.that(
    onUser.every((r) => saysOn(r, agent.word, 'user')),
    'every match has the word in a user_input',
    onUser.find((r) => !saysOn(r, agent.word, 'user'))?.id,
  );
});

rule('conversations.filter.turn-type-transcript-only', 'does not apply turn_type outside a transcript search', async (api) => {
  const { t, check } = api;
  const base = { ...windows(t).day, client_env: 'live', limit: 1000 };
  const plain = asRecords(await page(api, base));
  const res = await t.records.list({ ...base, turn_type: 'user' });
  if (res.status >= 400 && res.status < 500) return api.observe('turn_type without transcript search', `rejected with ${res.status}`);
  check.success(res, 'either rejected or answered');
  const withTurnType = asRecords(res.json as { conversations: unknown[] });
  check.equal(ids(withTurnType), ids(plain), 'turn_type changes nothing without a transcript search');
});

rule('conversations.filter.include-latency-default-false', 'leaves turn latency unfilled without include_latency', async (api) => {
  const turns = turnsOf(asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 300 })));
  api.check.that(turns.length > 0, 'turns to check', 0);
  api.check.that(
    turns.every((tn) => tn.latency === undefined || tn.latency === null),
    'latency absent or null',
    turns.find((tn) => tn.latency !== undefined && tn.latency !== null)?.latency,
  );
});

rule('conversations.filter.include-latency-fills', 'fills latency with a number on every turn for include_latency=true', async (api) => {
  const turns = turnsOf(asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 300, include_latency: true })));
  api.check.that(turns.length > 0, 'turns to check', 0);
  api.check.that(
    turns.every((tn) => typeof tn.latency === 'number'),
    'latency is a number',
    turns.find((tn) => typeof tn.latency !== 'number')?.latency,
  );
});

rule(
  'conversations.filter.include-latency-empty-turns',
  'leaves turns empty under include_latency=true when transcript visibility is off',
  async (api) => {
    const { client } = await mintedRecords(api, { transcript: false });
    const records = asRecords(await page(api, { ...windows(api.t).week, client_env: 'live', limit: 100, include_latency: true }, {}, client));
    api.check.that(
      records.some((r) => Number(r.num_turns) > 0),
      'records that have turns',
      records.map((r) => r.num_turns).slice(0, 5),
    );
    api.check.that(
      records.every((r) => Array.isArray(r.turns) && r.turns.length === 0),
      'turns stays an empty array',
      records.find((r) => !Array.isArray(r.turns) || r.turns.length > 0)?.turns,
    );
  },
  { needs: ['control'] },
);

rule('conversations.filter.streaming-flags', 'records what include_context_state and include_turn_metadata change', async (api) => {
  const base = { ...windows(api.t).day, client_env: 'live', limit: 3 };
  const plain = await api.t.records.list(base);
  const flagged = await api.t.records.list({ ...base, include_context_state: true, include_turn_metadata: true });
  api.observe('status with both flags', flagged.status);
  api.observe('body changed', plain.text !== flagged.text);
});
