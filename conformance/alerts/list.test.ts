import type { AgentsClient } from '../../src/clients/agents.js';
import { caseAccount, mintedAccount } from '../../src/clients/agents-control.js';
import { AlertRule, AlertRulesListResponse, AlertState, MAX_ALERT_RULES_PER_ACCOUNT } from '../../src/contract/alerts/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

const body = (o: Record<string, unknown> = {}) => ({
  name: 'dialtone list case',
  metric: 'api_errors',
  operator: '>=',
  threshold_value: 10,
  window_duration: '5m',
  ...o,
});

async function account({ t }: CaseApi): Promise<AgentsClient> {
  return (await caseAccount(t.agents, t.capabilities.has('control') ? t.control : undefined)).client;
}

async function created(api: CaseApi, client: AgentsClient, o: Record<string, unknown> = {}): Promise<string> {
  const res = await client.createRule(body(o));
  api.check.success(res, 'the rule is created');
  return api.check.schema(res, AlertRule.pick({ id: true }), 'the created rule carries its id').id;
}

async function listed(api: CaseApi, client: AgentsClient, query: Record<string, string> = {}): Promise<AlertRule[]> {
  const res = await client.listRules(query);
  api.check.success(res, `GET /v1/alert-rules?${new URLSearchParams(query)} succeeds`);
  return api.check.schema(res, AlertRulesListResponse, '{data: [rule]}').data;
}

/** Whether any string field of an alert entry is the rule id (the alerts list shape is not shown). */
const names = (entry: unknown, id: string) => JSON.stringify(entry).includes(`"${id}"`);

rule('alerts.list.response-data', 'answers the rule list as {data: [rule]}', async (api) => {
  const client = await account(api);
  await created(api, client);
  const data = await listed(api, client);
  api.check.that(data.length > 0, 'the created rule in data', data.length);
});

rule('alerts.list.no-pagination', 'returns every rule of the account in one response without pagination', async (api) => {
  const client = await account(api);
  const before = (await listed(api, client)).length;
  const ids: string[] = [];
  for (let i = before; i < MAX_ALERT_RULES_PER_ACCOUNT; i++) ids.push(await created(api, client, { name: `page ${i}` }));
  const res = await client.listRules();
  const data = api.check.schema(res, AlertRulesListResponse, '{data: [rule]}').data;
  api.check.that(
    ids.every((id) => data.some((r) => r.id === id)),
    `all ${MAX_ALERT_RULES_PER_ACCOUNT} rules in one response`,
    data.map((r) => r.id),
  );
  const paging = Object.keys(res.json ?? {}).filter((k) => /next|cursor|page|more|offset/i.test(k));
  api.check.equal(paging, [], 'no pagination fields');
});

rule('alerts.list.filter-enabled', 'lists only disabled rules for enabled=false and only enabled ones for enabled=true', async (api) => {
  const client = await account(api);
  const on = await created(api, client, { enabled: true, name: 'on' });
  const off = await created(api, client, { enabled: false, name: 'off' });
  const disabled = await listed(api, client, { enabled: 'false' });
  api.check.that(
    disabled.every((r) => r.enabled === false),
    'only enabled false',
    disabled.map((r) => r.enabled),
  );
  api.check.that(
    disabled.some((r) => r.id === off) && !disabled.some((r) => r.id === on),
    'the disabled rule and not the enabled one',
    disabled.map((r) => r.id),
  );
  const enabled = await listed(api, client, { enabled: 'true' });
  api.check.that(
    enabled.every((r) => r.enabled === true) && enabled.some((r) => r.id === on),
    'only enabled rules, the enabled one among them',
    enabled.map((r) => r.id),
  );
  // Across the change as well: a rule disabled by PATCH moves from the enabled=true list to the enabled=false one.
  api.check.success(await client.updateRule(on, { enabled: false }), 'PATCH {enabled: false} succeeds');
  const after = { off: await listed(api, client, { enabled: 'false' }), on: await listed(api, client, { enabled: 'true' }) };
  api.check.that(
    after.off.some((r) => r.id === on) && !after.on.some((r) => r.id === on),
    'once disabled by PATCH, the rule is listed for enabled=false and not for enabled=true',
    { false: after.off.map((r) => r.id), true: after.on.map((r) => r.id) },
  );
});

rule('alerts.list.filter-metric', 'lists only the rules of the requested metric', async (api) => {
  const client = await account(api);
  const errors = await created(api, client, { metric: 'api_errors' });
  const volume = await created(api, client, { metric: 'call_volume' });
  const rows = await listed(api, client, { metric: 'call_volume' });
  api.check.that(
    rows.every((r) => r.metric === 'call_volume'),
    'only call_volume rules',
    rows.map((r) => r.metric),
  );
  api.check.that(
    rows.some((r) => r.id === volume) && !rows.some((r) => r.id === errors),
    'the call_volume rule and not the api_errors one',
    rows.map((r) => r.id),
  );
});

rule('alerts.list.filter-project-id', 'lists only the rules of the requested project', async (api) => {
  const client = await account(api);
  const north = await created(api, client, { project_id: 'dialtone-north' });
  const south = await created(api, client, { project_id: 'dialtone-south' });
  const wide = await created(api, client);
  const rows = await listed(api, client, { project_id: 'dialtone-north' });
  api.check.that(
    rows.every((r) => r.project_id === 'dialtone-north'),
    'only project dialtone-north',
    rows.map((r) => r.project_id),
  );
  api.check.that(
    rows.some((r) => r.id === north) && !rows.some((r) => r.id === south || r.id === wide),
    'the north rule alone',
    rows.map((r) => r.id),
  );
});

rule(
  'alerts.list.filter-state',
  'lists only the rules in the requested state',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const firing = await created(api, acct.client, { metric: 'api_errors', name: 'firing' });
    const calm = await created(api, acct.client, { metric: 'function_errors', name: 'calm' });
    await acct.control.setMetric(acct.accountId, 'api_errors', 12);
    await acct.control.setMetric(acct.accountId, 'function_errors', 3);
    await acct.control.evaluate(acct.accountId);
    const fresh = await created(api, acct.client, { metric: 'call_volume', name: 'not yet evaluated' });
    for (const state of AlertState.options) {
      const rows = await listed(api, acct.client, { state });
      check.that(
        rows.every((r) => r.state === undefined || r.state === state),
        `only rules in state ${state}`,
        rows.map((r) => r.state),
      );
      const expected: string[] = { alert: [firing], ok: [calm], no_data: [], unknown: [] }[state];
      check.that(
        expected.every((id) => rows.some((r) => r.id === id)),
        `state=${state} lists ${expected.join(', ') || 'no rule of this case'}`,
        rows.map((r) => r.id),
      );
      const others = [firing, calm].filter((id) => !expected.includes(id));
      check.that(
        !rows.some((r) => others.includes(r.id)),
        `state=${state} leaves out rules in other states`,
        rows.map((r) => r.id),
      );
    }
    const byState = await Promise.all(
      AlertState.options.map(async (s) => ((await listed(api, acct.client, { state: s })).some((r) => r.id === fresh) ? s : undefined)),
    );
    check.equal(byState.filter(Boolean).length, 1, 'the new rule is listed under exactly one state');
    // Out of alert as well as into it: once resolved, the rule is listed under ok and no longer under alert.
    await acct.control.setMetric(acct.accountId, 'api_errors', 4);
    await acct.control.evaluate(acct.accountId);
    const alerting = await listed(api, acct.client, { state: 'alert' });
    check.that(
      !alerting.some((r) => r.id === firing),
      'state=alert leaves out the rule once it has resolved to ok',
      alerting.map((r) => r.id),
    );
    const ok = await listed(api, acct.client, { state: 'ok' });
    check.that(
      ok.some((r) => r.id === firing),
      'state=ok lists the rule once it has resolved to ok',
      ok.map((r) => r.id),
    );
  },
  { needs: ['control'] },
);

rule(
  'alerts.active.list',
  'lists an active alert for a rule while it fires, and none before it fires or once it has resolved',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const firing = await created(api, acct.client, { metric: 'api_errors', name: 'active' });
    const calm = await created(api, acct.client, { metric: 'function_errors', name: 'quiet' });
    await acct.control.setMetric(acct.accountId, 'function_errors', 3);
    // A list is checked on both sides of each transition into and out of the state it shows: ok, alert, ok again.
    const listedAfter = async (errors: number, when: string, expected: boolean) => {
      await acct.control.setMetric(acct.accountId, 'api_errors', errors);
      await acct.control.evaluate(acct.accountId);
      const res = await acct.client.alerts();
      check.success(res, 'GET /v1/alerts succeeds');
      const entries = (Array.isArray(res.json) ? res.json : (Object.values(res.json ?? {}).find(Array.isArray) ?? [])) as unknown[];
      check.that(entries.some((e) => names(e, firing)) === expected, `${expected ? 'an' : 'no'} active alert for the rule ${when}`, res.text.slice(0, 300));
      check.that(!entries.some((e) => names(e, calm)), 'no active alert for the rule within its threshold', res.text.slice(0, 300));
    };
    await listedAfter(3, 'before it fires (ok, 3 of 10 errors)', false);
    await listedAfter(12, 'while it fires (alert, 12 of 10 errors)', true);
    await listedAfter(4, 'once it has resolved (back to ok, 4 of 10 errors)', false);
  },
  { needs: ['control'] },
);

rule('alerts.active.response-shape', 'records the shape of GET /v1/alerts', async (api) => {
  const client = await account(api);
  const res = await client.alerts();
  api.observe('GET /v1/alerts', `${res.status} ${res.text.slice(0, 200)}`);
});

rule(
  'alerts.errors.502-sync',
  'answers 502 to alert requests while the monitoring backend fails to sync',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    await acct.control.backend(acct.accountId, true);
    try {
      check.status(await acct.client.listRules(), 502, 'GET /v1/alert-rules answers 502');
      check.status(await acct.client.createRule(body()), 502, 'POST /v1/alert-rules answers 502');
    } finally {
      await acct.control.backend(acct.accountId, false);
    }
    check.success(await acct.client.listRules(), 'the list answers again once the backend syncs');
  },
  { needs: ['control'] },
);
