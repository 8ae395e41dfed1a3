import { type CaseAccount, mintedAccount } from '../../src/clients/agents-control.js';
import { eventType, WebhookReceiver } from '../../src/clients/webhook-receiver.js';
import { AlertRule, AlertRulesListResponse, AlertState, INITIAL_STATE_READINGS } from '../../src/contract/alerts/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

const body = (o: Record<string, unknown> = {}) => ({
  name: `dialtone state case ${Math.random().toString(36).slice(2, 8)}`,
  metric: 'api_errors',
  operator: '>=',
  threshold_value: 10,
  window_duration: '5m',
  ...o,
});

async function created(api: CaseApi, acct: Pick<CaseAccount, 'client'>, o: Record<string, unknown> = {}): Promise<Pick<AlertRule, 'id' | 'name'>> {
  const res = await acct.client.createRule(body(o));
  api.check.success(res, 'the rule is created');
  return api.check.schema(res, AlertRule.pick({ id: true, name: true }), 'the created rule');
}

/** The listed rule; its state is read from the list, or from the state filters when the list does not show one. */
async function listed(api: CaseApi, acct: Pick<CaseAccount, 'client'>, id: string): Promise<AlertRule & { state: AlertState }> {
  const data = api.check.schema(await acct.client.listRules(), AlertRulesListResponse, '{data: [rule]}').data;
  const found = data.find((r) => r.id === id);
  api.check.that(
    found !== undefined,
    `rule ${id} is listed`,
    data.map((r) => r.id),
  );
  const r = found as AlertRule;
  if (r.state !== undefined) return r as AlertRule & { state: AlertState };
  for (const state of AlertState.options) {
    const rows = AlertRulesListResponse.safeParse((await acct.client.listRules({ state })).json);
    if (rows.success && rows.data.data.some((x) => x.id === id)) return { ...r, state };
  }
  api.check.that(false, 'the rule has a state (listed, or found under one state filter)', 'no state');
  return r as AlertRule & { state: AlertState };
}

/** Sets the metric and evaluates the account now. */
async function evaluated(acct: CaseAccount, metric: Parameters<CaseAccount['control']['setMetric']>[1], value: number | null) {
  await acct.control.setMetric(acct.accountId, metric, value);
  await acct.control.evaluate(acct.accountId);
}

/** A receiver subscribed to both events, registered for the account; closed by the caller. */
async function receiving(api: CaseApi, acct: CaseAccount): Promise<WebhookReceiver> {
  const rx = await WebhookReceiver.start();
  const res = await acct.client.createEndpoint({ name: 'dialtone receiver', url: rx.url, event_types: ['alerts.triggered', 'alerts.resolved'] });
  if (res.status >= 300) await rx.close();
  api.check.success(res, 'the webhook endpoint is registered');
  return rx;
}

const named = (name: string, event: string) => (d: { json: unknown }) =>
  eventType(d) === event && (d.json as { alert?: { name?: unknown } }).alert?.name === name;

rule('alerts.state.initial', 'starts a new rule in ok or unknown, and records which', async (api) => {
  const { t } = api;
  const acct = t.capabilities.has('control') ? await mintedAccount(t.agents, t.control) : { client: t.agents };
  const r = await created(api, acct);
  const { state } = await listed(api, acct, r.id);
  api.check.that((INITIAL_STATE_READINGS as readonly string[]).includes(state), 'ok (the table) or unknown (the note)', state);
  api.choose(state);
});

rule(
  'alerts.state.enum',
  'shows only the states ok, alert, no_data and unknown through a rule’s life',
  async (api) => {
    const acct = await mintedAccount(api.t.agents, api.t.control);
    const r = await created(api, acct);
    const seen = [(await listed(api, acct, r.id)).state];
    for (const value of [3, 12, null]) {
      await evaluated(acct, 'api_errors', value);
      seen.push((await listed(api, acct, r.id)).state);
    }
    api.check.that(
      seen.every((s) => AlertState.safeParse(s).success),
      'every state one of ok, alert, no_data, unknown',
      seen,
    );
  },
  { needs: ['control'] },
);

rule(
  'alerts.state.ok-to-alert',
  'moves an ok rule whose metric breaches the threshold to alert and sends alerts.triggered',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const rx = await receiving(api, acct);
    try {
      const r = await created(api, acct);
      await evaluated(acct, 'api_errors', 3);
      check.equal((await listed(api, acct, r.id)).state, 'ok', 'ok while the metric is within the threshold');
      await evaluated(acct, 'api_errors', 12);
      check.equal((await listed(api, acct, r.id)).state, 'alert', 'alert once the metric breaches the threshold');
      await rx.waitFor(named(r.name, 'alerts.triggered'), 'alerts.triggered');
    } finally {
      await rx.close();
    }
  },
  { needs: ['control'] },
);

rule(
  'alerts.state.alert-to-ok',
  'moves an alert rule whose metric is back within the threshold to ok and sends alerts.resolved',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const rx = await receiving(api, acct);
    try {
      const r = await created(api, acct);
      await evaluated(acct, 'api_errors', 12);
      check.equal((await listed(api, acct, r.id)).state, 'alert', 'alert while the metric breaches the threshold');
      await evaluated(acct, 'api_errors', 4);
      check.equal((await listed(api, acct, r.id)).state, 'ok', 'ok once the metric is back within the threshold');
      await rx.waitFor(named(r.name, 'alerts.resolved'), 'alerts.resolved');
    } finally {
      await rx.close();
    }
  },
  { needs: ['control'] },
);

rule(
  'alerts.state.any-to-no-data',
  'moves a rule without data in its window to no_data, from a fresh rule and from alert',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const quiet = await created(api, acct, { metric: 'call_volume', threshold_value: 1 });
    const firing = await created(api, acct);
    await evaluated(acct, 'api_errors', 12);
    check.equal((await listed(api, acct, quiet.id)).state, 'no_data', 'a call_volume rule with no calls is no_data');
    check.equal((await listed(api, acct, firing.id)).state, 'alert', 'the api_errors rule is alert');
    await evaluated(acct, 'api_errors', null);
    check.equal((await listed(api, acct, firing.id)).state, 'no_data', 'the alert rule moves to no_data once its window holds no data');
  },
  { needs: ['control'] },
);

rule(
  'alerts.state.any-to-unknown',
  'moves a rule whose evaluation could not complete to unknown',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const r = await created(api, acct);
    await evaluated(acct, 'api_errors', 3);
    check.equal((await listed(api, acct, r.id)).state, 'ok', 'ok after a completed evaluation');
    await acct.control.backend(acct.accountId, true);
    try {
      await acct.control.evaluate(acct.accountId);
    } finally {
      await acct.control.backend(acct.accountId, false);
    }
    check.equal((await listed(api, acct, r.id)).state, 'unknown', 'unknown after an evaluation that could not complete');
  },
  { needs: ['control'] },
);

rule(
  'alerts.state.out-of-no-data-unknown',
  'records where no_data and unknown rules go next, and which events that sends',
  async (api) => {
    const { t, observe } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const rx = await receiving(api, acct);
    try {
      const r = await created(api, acct);
      await evaluated(acct, 'api_errors', null);
      await evaluated(acct, 'api_errors', 12);
      observe('no_data then a breach', (await listed(api, acct, r.id)).state);
      await acct.control.backend(acct.accountId, true);
      await acct.control.evaluate(acct.accountId);
      await acct.control.backend(acct.accountId, false);
      await evaluated(acct, 'api_errors', 3);
      observe('unknown then within the threshold', (await listed(api, acct, r.id)).state);
      observe('events', rx.deliveries.map(eventType));
    } finally {
      await rx.close();
    }
  },
  { needs: ['control'] },
);

rule(
  'alerts.rules.disabled-evaluation',
  'records the state of a disabled rule whose metric breaches the threshold',
  async (api) => {
    const acct = await mintedAccount(api.t.agents, api.t.control);
    const r = await created(api, acct, { enabled: false });
    await evaluated(acct, 'api_errors', 12);
    const seen = await listed(api, acct, r.id);
    api.observe('disabled rule after a breach', { state: seen.state, last_evaluated_at: seen.last_evaluated_at, current_value: seen.current_value });
  },
  { needs: ['control'] },
);

rule(
  'alerts.metric.latency-ms',
  'reads turn latency percentiles and thresholds in milliseconds',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const p50 = await created(api, acct, { metric: 'turn_latency_p50', threshold_value: 250 });
    const p95 = await created(api, acct, { metric: 'turn_latency_p95', threshold_value: 1000 });
    for (const latency_ms of [100, 200, 300, 400, 500]) await acct.control.traffic(acct.accountId, { kind: 'turn', latency_ms });
    await acct.control.evaluate(acct.accountId);
    const a = await listed(api, acct, p50.id);
    const b = await listed(api, acct, p95.id);
    check.equal(a.current_value, 300, 'p50 of turns of 100 to 500 ms is 300 (milliseconds)');
    check.that(b.current_value !== null && b.current_value >= 400 && b.current_value <= 500, 'p95 between 400 and 500 (milliseconds)', b.current_value);
    check.equal([a.state, b.state], ['alert', 'ok'], 'threshold 250 ms is breached by p50, threshold 1000 ms is not by p95');
    // Real chat turns land in the account of the profile's key and give its p95 rule a value.
    const main = { client: t.agents };
    const chatRule = await created(api, main, { metric: 'turn_latency_p95', threshold_value: 60_000 });
    const conversation = await t.chat.create({ initial_message: 'What time do you open?' });
    check.success(conversation, 'a chat conversation starts');
    check.success(await t.chat.respond({ conversation_id: String(conversation.json?.conversation_id), message: 'And on Sundays?' }), 'a chat turn');
    await acct.control.evaluate((await acct.control.referenceAccount()).account_id);
    const fromChat = await listed(api, main, chatRule.id);
    check.that(
      typeof fromChat.current_value === 'number' && fromChat.current_value >= 0,
      'chat turns give turn_latency_p95 a value in ms',
      fromChat.current_value,
    );
  },
  { needs: ['control'] },
);

rule(
  'alerts.metric.counts-absolute',
  'counts api_errors from real traffic as an absolute number in each window, not a rate',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const five = await created(api, acct, { window_duration: '5m', threshold_value: 100 });
    const sixty = await created(api, acct, { window_duration: '60m', threshold_value: 100 });
    for (let i = 0; i < 4; i++) check.success(await acct.client.listAgents(), 'a successful request');
    for (let i = 0; i < 3; i++) check.status(await acct.client.deployments('agt_0000000000000000', { environment: 'sandbox' }), 404, 'an API error (404)');
    await acct.control.evaluate(acct.accountId);
    check.equal((await listed(api, acct, five.id)).current_value, 3, 'current_value 3 in the 5m window (3 errors of 9 requests, not a ratio)');
    check.equal((await listed(api, acct, sixty.id)).current_value, 3, 'current_value 3 in the 60m window too (not a per-minute rate)');
  },
  { needs: ['control'] },
);

rule(
  'alerts.metric.gte-threshold',
  'triggers an api_errors rule of 5m and threshold 10 at 10 real errors and not at 9',
  async (api) => {
    const { t, check } = api;
    const acct = await mintedAccount(t.agents, t.control);
    const r = await created(api, acct, { window_duration: '5m', threshold_value: 10 });
    const error = async () => check.status(await acct.client.deployments('agt_0000000000000000', { environment: 'sandbox' }), 404, 'an API error (404)');
    for (let i = 0; i < 9; i++) await error();
    await acct.control.evaluate(acct.accountId);
    const nine = await listed(api, acct, r.id);
    check.equal([nine.current_value, nine.state], [9, 'ok'], '9 errors: within the threshold (ok)');
    await error();
    await acct.control.evaluate(acct.accountId);
    const ten = await listed(api, acct, r.id);
    check.equal([ten.current_value, ten.state], [10, 'alert'], '10 errors: the threshold is reached (alert)');
  },
  { needs: ['control'] },
);
