import type { AgentsClient } from '../../src/clients/agents.js';
import { type CaseAccount, caseAccount, mintedAccount } from '../../src/clients/agents-control.js';
import { AgentsErrors, ApiError } from '../../src/contract/agents/shapes.js';
import { AlertMetric, AlertRule, AlertRulesListResponse, MAX_ALERT_RULES_PER_ACCOUNT, WindowDuration } from '../../src/contract/alerts/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

/** A valid create body; cases override what they test. */
const body = (o: Record<string, unknown> = {}) => ({
  name: 'dialtone api errors',
  metric: 'api_errors',
  operator: '>=',
  threshold_value: 10,
  window_duration: '5m',
  ...o,
});

/** The account of a case: minted on the reference target, so the 10-rule limit is the case's own. */
async function account({ t }: CaseApi): Promise<AgentsClient> {
  return (await caseAccount(t.agents, t.capabilities.has('control') ? t.control : undefined)).client;
}

/** The listed rule with this id. */
async function listedRule({ check }: CaseApi, client: AgentsClient, id: string): Promise<AlertRule> {
  const data = check.schema(await client.listRules(), AlertRulesListResponse, '{data: [rule]}').data;
  const found = data.find((r) => r.id === id);
  check.that(
    found !== undefined,
    `rule ${id} is listed`,
    data.map((r) => r.id),
  );
  return found as AlertRule;
}

async function created(api: CaseApi, client: AgentsClient, o: Record<string, unknown> = {}): Promise<string> {
  const res = await client.createRule(body(o));
  api.check.success(res, 'the rule is created');
  return api.check.schema(res, AlertRule.pick({ id: true }), 'the created rule carries its id').id;
}

/** Whether a documented example message is the body's message or one of its errors' messages. */
const carries = (json: unknown, text: string) => {
  const parsed = ApiError.safeParse(json);
  return parsed.success && (parsed.data.message === text || parsed.data.errors.some((e) => e.message === text));
};

rule('alerts.rules.id-ar-prefix', 'assigns every created rule an id starting with ar_', async (api) => {
  const client = await account(api);
  const id = await created(api, client);
  api.check.that(id.startsWith('ar_'), 'an id that starts with ar_', id);
  api.check.that((await listedRule(api, client, id)).id.startsWith('ar_'), 'listed with the ar_ id', id);
});

rule('alerts.rules.name-required', 'rejects an alert rule without name', async (api) => {
  const client = await account(api);
  const { name: _name, ...withoutName } = body();
  api.check.rejected(await client.createRule(withoutName), 'create without name is rejected');
});

rule('alerts.rules.project-id-optional', 'accepts a rule without project_id as account-wide', async (api) => {
  const client = await account(api);
  const id = await created(api, client);
  const r = await listedRule(api, client, id);
  api.check.that(r.project_id === null || r.project_id === undefined, 'no project_id: the rule is account-wide', r.project_id);
});

rule('alerts.rules.other-fields-required', 'records what create answers with only a name, and the defaults it fills in', async (api) => {
  const client = await account(api);
  const res = await client.createRule({ name: 'only a name' });
  api.observe('create with only name', `${res.status} ${res.text.slice(0, 240)}`);
  const defaults = await client.createRule({ name: 'defaults', metric: 'api_errors', threshold_value: 1, window_duration: '5m' });
  api.observe('create without operator and enabled', `${defaults.status} operator=${defaults.json?.operator} enabled=${defaults.json?.enabled}`);
});

rule('alerts.rules.metric-enum', 'accepts each of the six metrics and rejects another', async (api) => {
  const client = await account(api);
  for (const metric of AlertMetric.options)
    api.check.success(await client.createRule(body({ metric, name: `metric ${metric}` })), `metric ${metric} is accepted`);
  api.check.rejected(await client.createRule(body({ metric: 'cpu_usage' })), 'metric cpu_usage is rejected');
});

rule('alerts.rules.operator-gte', 'accepts the operator >= and lists it', async (api) => {
  const client = await account(api);
  const id = await created(api, client, { operator: '>=' });
  api.check.equal((await listedRule(api, client, id)).operator, '>=', 'operator >=');
});

rule('alerts.rules.operators-other', 'records whether operators other than >= are accepted', async (api) => {
  const client = await account(api);
  for (const operator of ['>', '<=', '==']) api.observe(`operator ${operator}`, (await client.createRule(body({ operator, name: `op ${operator}` }))).status);
});

rule('alerts.rules.threshold-non-negative-integer', 'accepts threshold_value 0 and rejects -1 and 1.5', async (api) => {
  const client = await account(api);
  api.check.success(await client.createRule(body({ threshold_value: 0 })), 'threshold_value 0 is accepted');
  api.check.rejected(await client.createRule(body({ threshold_value: -1 })), 'threshold_value -1 is rejected');
  api.check.rejected(await client.createRule(body({ threshold_value: 1.5 })), 'threshold_value 1.5 is rejected');
});

rule('alerts.rules.window-enum', 'accepts the windows 5m, 10m and 60m and rejects 15m', async (api) => {
  const client = await account(api);
  for (const w of WindowDuration.options)
    api.check.success(await client.createRule(body({ window_duration: w, name: `window ${w}` })), `window_duration ${w} is accepted`);
  api.check.rejected(await client.createRule(body({ window_duration: '15m' })), 'window_duration 15m is rejected');
});

rule('alerts.rules.enabled-settable', 'disables a rule with PATCH {enabled: false}', async (api) => {
  const client = await account(api);
  const id = await created(api, client, { enabled: true });
  api.check.success(await client.updateRule(id, { enabled: false }), 'PATCH {enabled: false} succeeds');
  api.check.equal((await listedRule(api, client, id)).enabled, false, 'listed with enabled false');
});

rule('alerts.rules.patch-only-changed', 'changes only threshold_value on a PATCH that sends only it', async (api) => {
  const client = await account(api);
  const fields = {
    name: 'patch me',
    project_id: 'dialtone-north',
    metric: 'function_errors',
    operator: '>=',
    threshold_value: 5,
    window_duration: '60m',
    enabled: false,
  } as const;
  const id = await created(api, client, fields);
  api.check.success(await client.updateRule(id, { threshold_value: 7 }), 'PATCH {threshold_value: 7} succeeds');
  const r = await listedRule(api, client, id);
  const seen = {
    name: r.name,
    project_id: r.project_id,
    metric: r.metric,
    operator: r.operator,
    threshold_value: r.threshold_value,
    window_duration: r.window_duration,
    enabled: r.enabled,
  };
  api.check.equal(seen, { ...fields, threshold_value: 7 }, 'threshold_value 7 and every other field as created');
});

rule('alerts.rules.list-fields', 'lists a rule with its create fields, its timestamps and current_value', async (api) => {
  const { t, check } = api;
  const control = t.capabilities.has('control');
  const acct: CaseAccount | undefined = control ? await mintedAccount(t.agents, t.control) : undefined;
  const client = acct?.client ?? t.agents;
  const fields = {
    name: 'listed fields',
    project_id: 'dialtone-south',
    metric: 'call_volume',
    operator: '>=',
    threshold_value: 50,
    window_duration: '10m',
    enabled: true,
  } as const;
  const id = await created(api, client, fields);
  if (acct) {
    await acct.control.setMetric(acct.accountId, 'call_volume', 4, 'dialtone-south');
    await acct.control.evaluate(acct.accountId);
  }
  const r = await listedRule(api, client, id);
  const { id: _id, state: _s, created_at: _c, updated_at: _u, since: _si, last_evaluated_at, current_value, ...rest } = r;
  check.equal(rest, fields, 'the create fields as sent');
  if (acct) {
    check.that(typeof last_evaluated_at === 'string', 'last_evaluated_at (ISO 8601) once evaluated', last_evaluated_at);
    check.equal(current_value, 4, 'current_value (number) once evaluated');
  }
});

rule('alerts.rules.unevaluated-values', 'records last_evaluated_at and current_value before evaluation and without data', async (api) => {
  const { t } = api;
  const acct = t.capabilities.has('control') ? await mintedAccount(t.agents, t.control) : undefined;
  const client = acct?.client ?? t.agents;
  const id = await created(api, client, { metric: 'call_crashes' });
  const fresh = await listedRule(api, client, id);
  api.observe('before the first evaluation', { last_evaluated_at: fresh.last_evaluated_at, current_value: fresh.current_value });
  if (!acct) return;
  await acct.control.evaluate(acct.accountId);
  const r = await listedRule(api, client, id);
  api.observe('evaluated without data', { state: r.state, last_evaluated_at: r.last_evaluated_at === null ? null : 'set', current_value: r.current_value });
});

rule('alerts.rules.limit-10-409', 'creates 10 rules in an account and answers 409 to the 11th', async (api) => {
  const client = await account(api);
  const existing = api.check.schema(await client.listRules(), AlertRulesListResponse, '{data: [rule]}').data.length;
  for (let i = existing; i < MAX_ALERT_RULES_PER_ACCOUNT; i++)
    api.check.success(await client.createRule(body({ name: `rule ${i + 1}` })), `rule ${i + 1} of 10 is created`);
  api.check.status(await client.createRule(body({ name: 'rule 11' })), 409, 'the 11th rule answers 409');
});

rule('alerts.rules.create-response-shape', 'records the body of the create response', async (api) => {
  const client = await account(api);
  const res = await client.createRule(body());
  api.observe('create response', `${res.status} ${res.text.slice(0, 300)}`);
});

rule('alerts.rules.single-rule-paths', 'records what GET, PATCH and DELETE on /v1/alert-rules/{id} answer', async (api) => {
  const client = await account(api);
  const id = await created(api, client);
  const path = `/v1/alert-rules/${id}`;
  api.observe('GET', (await client.call('GET', path)).status);
  api.observe('PATCH', (await client.updateRule(id, { threshold_value: 11 })).status);
  api.observe('DELETE', (await client.deleteRule(id)).status);
  api.observe('GET after DELETE', (await client.call('GET', path)).status);
});

rule('alerts.errors.threshold-message', 'rejects threshold_value -1 and 1.5 with the documented message', async (api) => {
  const client = await account(api);
  const text = AgentsErrors.THRESHOLD_VALUE.text;
  for (const threshold_value of [-1, 1.5]) {
    const res = await client.createRule(body({ threshold_value }));
    api.check.that(res.status === 400 || res.status === 422, `threshold_value ${threshold_value} is rejected with 400 or 422`, res.status);
    api.check.that(carries(res.json, text), `"${text}" in message or an errors entry`, res.text.slice(0, 300));
  }
});

rule('alerts.errors.metric-message', 'rejects a metric outside the six with the documented message', async (api) => {
  const client = await account(api);
  const text = AgentsErrors.METRIC_ENUM.text;
  const res = await client.createRule(body({ metric: 'cpu_usage' }));
  api.check.that(res.status === 400 || res.status === 422, 'metric cpu_usage is rejected with 400 or 422', res.status);
  api.check.that(carries(res.json, text), `"${text}" in message or an errors entry`, res.text.slice(0, 300));
});
