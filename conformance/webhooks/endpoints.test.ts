import type { AgentsClient } from '../../src/clients/agents.js';
import { caseAccount, mintedAccount } from '../../src/clients/agents-control.js';
import { eventType, verifyAnyScheme, WebhookReceiver } from '../../src/clients/webhook-receiver.js';
import { API_KEY_HEADER } from '../../src/contract/agents/shapes.js';
import { AlertRule } from '../../src/contract/alerts/shapes.js';
import { type WebhookEndpointCreateRequest, WebhookEventType, WebhooksPaths } from '../../src/contract/webhooks/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

/** An endpoint URL where nothing listens: creating endpoints needs no receiver while no rule fires. */
const NOWHERE = 'http://127.0.0.1:9/dialtone-hooks';

const endpoint = (o: Record<string, unknown> = {}): WebhookEndpointCreateRequest =>
  ({ name: 'dialtone endpoint', url: NOWHERE, event_types: ['alerts.triggered', 'alerts.resolved'], ...o }) as WebhookEndpointCreateRequest;

async function account({ t }: CaseApi): Promise<AgentsClient> {
  return (await caseAccount(t.agents, t.capabilities.has('control') ? t.control : undefined)).client;
}

const keysOf = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v).sort().join(', ') : typeof v);

rule('webhooks.auth.x-api-key-header', 'answers POST /v1/webhook-endpoints 2xx with a valid key in x-api-key', async (api) => {
  const client = await account(api);
  const res = await client.createEndpoint(endpoint());
  api.check.that(Object.keys(res.exchange.requestHeaders).includes(API_KEY_HEADER), 'the key sent in x-api-key', Object.keys(res.exchange.requestHeaders));
  api.check.success(res, 'a valid key in x-api-key is accepted');
});

rule('webhooks.auth.missing-key-401', 'answers 401 to a webhook endpoint request without x-api-key', async ({ t, check }) => {
  check.status(await t.agents.createEndpoint(endpoint(), { headers: { [API_KEY_HEADER]: undefined } }), 401);
});

rule('webhooks.auth.invalid-key-401', 'answers 401 to a webhook endpoint request with a key the operator did not issue', async ({ t, check }) => {
  check.status(await t.agents.createEndpoint(endpoint(), { headers: { [API_KEY_HEADER]: 'dialtone-not-a-real-key' } }), 401);
});

rule('webhooks.endpoint.create-fields', 'accepts name, url and event_types on create', async (api) => {
  const client = await account(api);
  api.check.success(
    await client.createEndpoint({ name: 'on-call pager', url: NOWHERE, event_types: ['alerts.triggered'] }),
    'create with name, url, event_types succeeds',
  );
});

rule('webhooks.endpoint.event-types-enum', 'accepts alerts.triggered and alerts.resolved as event types and rejects another', async (api) => {
  const client = await account(api);
  for (const type of WebhookEventType.options)
    api.check.success(await client.createEndpoint(endpoint({ event_types: [type] })), `event type ${type} is accepted`);
  api.check.rejected(await client.createEndpoint(endpoint({ event_types: ['alerts.muted'] })), 'event type alerts.muted is rejected');
});

rule('webhooks.endpoint.signing-secret-once', 'returns signing_secret on create and never again', async (api) => {
  const { check, observe } = api;
  const client = await account(api);
  const res = await client.createEndpoint(endpoint());
  check.success(res, 'create succeeds');
  const secret = res.json?.signing_secret;
  check.that(typeof secret === 'string' && secret.length > 0, 'signing_secret (string) in the create response', typeof secret);
  const list = await client.call('GET', WebhooksPaths.endpoints);
  observe('endpoint list (path not shown)', list.status);
  if (list.status < 300) check.that(!list.text.includes(String(secret)), 'the secret is not returned by the endpoint list', 'the list carries the secret');
  const again = await client.createEndpoint(endpoint());
  check.that(again.json?.signing_secret !== secret, 'another endpoint gets another secret, not this one again', 'the same secret');
});

rule('webhooks.endpoint.response-fields', 'records the fields of the create response besides signing_secret', async (api) => {
  const client = await account(api);
  const res = await client.createEndpoint(endpoint());
  api.observe('create response fields', keysOf(res.json));
});

rule('webhooks.endpoint.other-paths', 'records list, update, rotate and delete, and which secret signs after a rotation', async (api) => {
  const { t, observe } = api;
  const control = t.capabilities.has('control');
  const acct = control ? await mintedAccount(t.agents, t.control) : undefined;
  const client = acct?.client ?? t.agents;
  const rx = await WebhookReceiver.start();
  try {
    const created = await client.createEndpoint(endpoint({ url: rx.url, event_types: ['alerts.triggered'] }));
    const id = String(created.json?.id);
    const oldSecret = String(created.json?.signing_secret);
    const base = WebhooksPaths.endpoints;
    observe('GET list', (await client.call('GET', base)).status);
    observe('PATCH', (await client.call('PATCH', `${base}/${id}`, { name: 'renamed' })).status);
    const rotated = await client.call('POST', `${base}/${id}/rotate-signing-secret`);
    observe('POST rotate-signing-secret', rotated.status);
    const newSecret = rotated.json?.signing_secret;
    if (acct && typeof newSecret === 'string') {
      const r = await client.createRule({ name: 'rotation check', metric: 'api_errors', operator: '>=', threshold_value: 1, window_duration: '5m' });
      AlertRule.pick({ id: true }).parse(r.json);
      await acct.control.setMetric(acct.accountId, 'api_errors', 5);
      await acct.control.evaluate(acct.accountId);
      const d = await rx.waitFor((x) => eventType(x) === 'alerts.triggered', 'alerts.triggered');
      const now = await acct.control.nowSeconds();
      observe('after rotation, verifies with the new secret', verifyAnyScheme(newSecret, d, now).ok);
      observe('after rotation, verifies with the old secret', verifyAnyScheme(oldSecret, d, now).ok);
    }
    observe('DELETE', (await client.call('DELETE', `${base}/${id}`)).status);
  } finally {
    await rx.close();
  }
});

rule('webhooks.endpoint.max-count', 'records how many endpoints an account may create before 409', async (api) => {
  const { t, observe } = api;
  if (!t.capabilities.has('control')) {
    observe('not probed', 'filling an account with endpoints needs an account minted through the control surface');
    return;
  }
  const acct = await mintedAccount(t.agents, t.control);
  for (let n = 1; n <= 50; n++) {
    const res = await acct.client.createEndpoint(endpoint({ name: `endpoint ${n}` }));
    if (res.status >= 300) {
      observe(`endpoint ${n}`, `${res.status} ${res.text.slice(0, 160)}`);
      return;
    }
  }
  observe('50 endpoints', 'all created');
});
