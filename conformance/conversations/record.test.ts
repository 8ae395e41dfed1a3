import { z } from 'zod';
import { ClientEnv } from '../../src/contract/common.js';
import { ConversationMetrics, ConversationRecord, ResponseMetricName, Turn } from '../../src/contract/conversations/shapes.js';
import { rule } from '../../src/suite/case.js';
import { chatConversation, type LoosePage, marker, mintedRecords, ownRecords, page, recordsControl, turnsOf, windows } from './records.js';

const Records = z.object({ conversations: z.array(z.looseObject({ id: z.string() })) });
const asRecords = (p: LoosePage) => p.conversations as Record<string, unknown>[];

rule('conversations.record.fields', 'returns every documented field with its documented type on each v3 record', async (api) => {
  const { t, check } = api;
  const res = await t.records.list({ ...windows(t).day, client_env: 'live', limit: 200 });
  check.success(res, 'the list answers 2xx');
  const body = check.schema(res, z.object({ conversations: z.array(ConversationRecord) }), 'records with every documented field and type');
  check.that(body.conversations.length > 0, 'the window holds records to check', 0);
});

rule('conversations.record.environment-enum', 'labels every record live, sandbox or pre-release', async (api) => {
  const { t, check } = api;
  const seen = new Set<unknown>();
  for (const env of ClientEnv.options) {
    for (const r of asRecords(await page(api, { ...windows(t).day, client_env: env, limit: 1000 }))) seen.add(r.environment);
  }
  const bad = [...seen].filter((e) => !ClientEnv.safeParse(e).success);
  check.that(bad.length === 0 && seen.size > 0, 'environment is one of live, sandbox, pre-release', [...seen]);
});

rule('conversations.record.channel-set', 'records the channel values the records carry', async (api) => {
  const records = asRecords(await page(api, { ...windows(api.t).week, client_env: 'live', limit: 1000 }));
  api.observe('channels', [...new Set(records.map((r) => r.channel))].sort());
});

rule('conversations.record.in-progress-state', 'shows a chat conversation in progress while open and finished once closed', async (api) => {
  const { t, check } = api;
  const id = await chatConversation(api, `Checking my booking ${marker()}`);
  const open = (await ownRecords(api, [id])).get(id);
  check.that(open !== undefined, 'the open conversation is listed as a record', 'not found in the recent window');
  check.equal(open?.in_progress, true, 'in_progress true while the conversation is active');
  check.success(await t.chat.close({ conversation_id: id }), 'the conversation is closed');
  const closed = (await ownRecords(api, [id])).get(id);
  check.equal(closed?.in_progress, false, 'in_progress false once the conversation has finished');
});

rule('conversations.record.num-turns-matches', 'gives num_turns equal to the number of turns whenever turns is filled', async (api) => {
  const records = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 500 }));
  const filled = records.filter((r) => Array.isArray(r.turns) && r.turns.length > 0);
  const wrong = filled
    .filter((r) => r.num_turns !== (r.turns as unknown[]).length)
    .map((r) => ({ id: r.id, num_turns: r.num_turns, turns: (r.turns as unknown[]).length }));
  api.check.that(filled.length > 0, 'records with turns to compare', records.length);
  api.check.that(wrong.length === 0, 'num_turns equals turns.length', wrong.slice(0, 3));
});

rule('conversations.turn.fields', 'returns every documented turn field with its documented type', async (api) => {
  const turns = turnsOf(asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 300 })));
  api.check.that(turns.length > 0, 'turns to check', 0);
  const bad = turns.map((tn) => Turn.safeParse(tn)).find((p) => !p.success);
  api.check.that(bad === undefined, 'each turn has the documented fields and types', bad?.error?.issues[0]);
  // Optional fields (latency, the translations) sent under another spelling pass the schema; their names do not.
  for (const tn of turns) api.check.names(tn, Turn, 'each turn has the documented fields and types');
});

rule('conversations.turn.ordered', "orders turns so each turn's timestamps are no earlier than the previous turn's", async (api) => {
  const records = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 500 }));
  const at = (tn: Record<string, unknown>, k: string) => Date.parse(String(tn[k]));
  const outOfOrder = records.filter((r) => {
    const ts = (r.turns as Record<string, unknown>[] | undefined) ?? [];
    return ts.some(
      (tn, i) =>
        i > 0 &&
        (at(tn, 'user_input_datetime') < at(ts[i - 1] as Record<string, unknown>, 'user_input_datetime') ||
          at(tn, 'agent_response_datetime') < at(ts[i - 1] as Record<string, unknown>, 'agent_response_datetime')),
    );
  });
  api.check.that(turnsOf(records).length > 0, 'turns to check', 0);
  api.check.that(outOfOrder.length === 0, 'turn timestamps never go back', outOfOrder.map((r) => r.id).slice(0, 3));
});

rule(
  'conversations.turn.translation-fields',
  'adds translated_user_input and english_agent_response only when translation is on for the project',
  async (api) => {
    const { t, check } = api;
    const { client: on } = await mintedRecords(api, { translation: true });
    const { client: off } = await mintedRecords(api, { translation: false });
    const window = { ...windows(t).week, client_env: 'live', limit: 100 };
    const withTranslation = turnsOf(asRecords(await page(api, window, {}, on)));
    const without = turnsOf(asRecords(await page(api, window, {}, off)));
    check.that(withTranslation.length > 0 && without.length > 0, 'both projects have turns', [withTranslation.length, without.length]);
    check.that(
      withTranslation.every((tn) => typeof tn.translated_user_input === 'string' && typeof tn.english_agent_response === 'string'),
      'with translation on, every turn has both fields as strings',
      withTranslation.find((tn) => typeof tn.translated_user_input !== 'string' || typeof tn.english_agent_response !== 'string'),
    );
    check.that(
      without.every((tn) => !('translated_user_input' in tn) && !('english_agent_response' in tn)),
      'with translation off, no turn has them',
      without.find((tn) => 'translated_user_input' in tn),
    );
  },
  { needs: ['control'] },
);

rule(
  'conversations.turns.transcript-off-empty',
  'empties turns but keeps the real num_turns once transcript visibility is switched off',
  async (api) => {
    const { t, check } = api;
    const { minted, client } = await mintedRecords(api, { transcript: true });
    const window = { ...windows(t).week, client_env: 'live', limit: 100 };
    const before = asRecords(await page(api, window, {}, client));
    await recordsControl(api).updateProject(minted.project_id, { transcript: false });
    const after = asRecords(await page(api, window, {}, client));
    const numTurns = new Map(before.map((r) => [r.id, (r.turns as unknown[]).length]));
    check.that(
      [...numTurns.values()].some((n) => n > 0),
      'records with turns before the switch',
      before.length,
    );
    check.that(
      after.every((r) => Array.isArray(r.turns) && r.turns.length === 0),
      'turns is an empty array on every record',
      after.find((r) => !Array.isArray(r.turns) || r.turns.length > 0)?.id,
    );
    const wrong = after.filter((r) => numTurns.has(r.id) && r.num_turns !== numTurns.get(r.id));
    check.that(
      wrong.length === 0,
      'num_turns still gives the real number of turns',
      wrong.slice(0, 3).map((r) => ({ id: r.id, num_turns: r.num_turns, real: numTurns.get(r.id) })),
    );
  },
  { needs: ['control'] },
);

rule('conversations.metrics.builtin-value-types', 'types CALL_DURATION as a string duration and CALL_TURN as an array of timestamps', async (api) => {
  const records = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 300 }));
  const metrics = records.map((r) => r.metrics as Record<string, unknown>);
  const bad = metrics.map((m) => ConversationMetrics.safeParse(m)).find((p) => !p.success);
  api.check.that(bad === undefined, 'CALL_DURATION a string, CALL_TURN an array of ISO 8601 timestamps', bad?.error?.issues[0]);
  for (const m of metrics) api.check.names(m, ConversationMetrics, 'CALL_DURATION and CALL_TURN');
  api.observe('records with CALL_DURATION / CALL_TURN', [
    metrics.filter((m) => m && 'CALL_DURATION' in m).length,
    metrics.filter((m) => m && 'CALL_TURN' in m).length,
    metrics.length,
  ]);
});

rule(
  'conversations.metrics.response-metric-names',
  'shows each switched-on response metric (CALL_IN_PROGRESS, CALL_COMPLETED, HANDOFF_TO, HANDOFF_REASON) as a key of metrics',
  async (api) => {
    const { t, check } = api;
    const window = { ...windows(t).week, client_env: 'live', limit: 50 };
    const all = ResponseMetricName.options;
    const { client } = await mintedRecords(api, { metrics: all });
    const records = asRecords(await page(api, window, {}, client));
    check.that(records.length > 0, 'records to check', 0);
    const missing = records.find((r) => all.some((k) => !(k in ((r.metrics as object) ?? {}))));
    check.that(missing === undefined, 'all four switched-on metrics are keys of metrics', missing?.metrics);
    const { client: one } = await mintedRecords(api, { metrics: ['HANDOFF_TO'] });
    const single = asRecords(await page(api, window, {}, one));
    check.that(
      single.every((r) => JSON.stringify(Object.keys((r.metrics as object) ?? {})) === '["HANDOFF_TO"]'),
      'with only HANDOFF_TO switched on, metrics holds just HANDOFF_TO',
      single[0]?.metrics,
    );
  },
  { needs: ['control'] },
);

rule(
  'conversations.metrics.empty-without-selection',
  'returns metrics as an empty object when the project selects no metric',
  async (api) => {
    const { client } = await mintedRecords(api, { metrics: [] });
    const records = asRecords(await page(api, { ...windows(api.t).week, client_env: 'live', limit: 100 }, {}, client));
    api.check.that(records.length > 0, 'records to check', 0);
    const bad = records.find((r) => JSON.stringify(r.metrics) !== '{}');
    api.check.that(bad === undefined, 'metrics is {}', bad?.metrics);
  },
  { needs: ['control'] },
);

rule('conversations.metrics.key-set', 'records the metrics and state keys the records carry', async (api) => {
  const records = asRecords(await page(api, { ...windows(api.t).day, client_env: 'live', limit: 300 }));
  const keys = (k: string) => [...new Set(records.flatMap((r) => Object.keys((r[k] as object) ?? {})))].sort();
  api.observe('metrics keys', keys('metrics'));
  api.observe('state keys', keys('state'));
});

rule('conversations.state.all-variables', 'returns state as a key-value object holding the variables set during the conversation', async (api) => {
  const { t, check } = api;
  const records = asRecords(await page(api, { ...windows(t).day, client_env: 'live', limit: 300 }));
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  check.that(
    records.length > 0 && records.every((r) => isObject(r.state)),
    'state is an object on every record',
    records.find((r) => !isObject(r.state))?.state,
  );
  if (!t.capabilities.has('control')) return api.observe('variables of a new conversation', 'not checked: how variables are set is target-specific');
  // The reference target keeps chat integration_attributes as conversation variables.
  const value = marker();
  const id = await chatConversation(api, 'Setting a variable', { integration_attributes: { dialtone_case: value } });
  const state = (await ownRecords(api, [id])).get(id)?.state as Record<string, unknown> | undefined;
  check.equal(state?.dialtone_case, value, 'the variable set on the conversation shows in its state');
});

rule('conversations.access.permissions', 'shows data only to a key permitted for the project, and turns only with transcript access', async (api) => {
  const { t, check } = api;
  const window = { ...windows(t).day, client_env: 'live', limit: 50 };
  const permitted = await t.records.list(window);
  check.success(permitted, 'the project key is answered');
  check.that(check.schema(permitted, Records, 'records').conversations.length > 0, 'the project key sees conversation data', 0);
  const other = t.records.secret('conversations_other_project_key');
  check.that(other !== undefined, 'the profile names conversations_other_project_key (a key of another project)', 'missing');
  const denied = await t.records.list(window, { apiKey: other ?? '' });
  const denied2xx = denied.status >= 200 && denied.status < 300;
  const leaked = denied2xx ? (Records.safeParse(denied.json).data?.conversations.length ?? 0) : 0;
  check.that(
    denied.status >= 400 || leaked === 0,
    'a key without permission for this project gets no conversation data',
    `${denied.status}, ${leaked} records`,
  );
  if (t.capabilities.has('control')) {
    const { client } = await mintedRecords(api, { transcript: false });
    const hidden = asRecords(await page(api, { ...windows(t).week, client_env: 'live', limit: 50 }, {}, client));
    check.that(
      hidden.length > 0 && hidden.every((r) => Array.isArray(r.turns) && r.turns.length === 0),
      'without transcript access, no turns are shown',
      hidden[0]?.turns,
    );
  }
});

rule('conversations.access.missing-permission-shape', 'records what the list answers a key without permission for the project', async (api) => {
  const { t } = api;
  const res = await t.records.list(
    { ...windows(t).day, client_env: 'live', limit: 5 },
    { apiKey: t.records.secret('conversations_other_project_key') ?? 'dialtone-no-such-key' },
  );
  api.observe('key of another project', `${res.status} ${res.text.slice(0, 200)}`);
});
