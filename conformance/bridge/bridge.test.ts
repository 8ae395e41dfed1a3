import type { Response } from '../../src/clients/exchange.js';
import { BRIDGE_STATE_KEYS, BridgeErrorBody, BridgeHeaders } from '../../src/contract/bridge/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { chatConversation, marker, mintedRecords, ownRecords, page, recordsControl, windows } from '../conversations/records.js';

const needs = { needs: ['control'] } as const;

/** A conversation of the project the case made through chat: bridged and transferred, as far as the case is concerned. */
const conversation = (api: CaseApi) => chatConversation(api, `Please transfer me ${marker()}`);

const body = (conversationId: string, o: Record<string, unknown> = {}) => ({
  conversation_id: conversationId,
  bridge_duration_seconds: 95.5,
  call_duration_seconds: 240,
  ...o,
});

const errorBody = (api: CaseApi, res: Response, documented: string) => api.check.schema(res, BridgeErrorBody, `${documented}, with an error_message body`);

/** The state of one of the case's conversations as the conversations list shows it. */
async function stateOf(api: CaseApi, id: string): Promise<Record<string, unknown>> {
  const record = (await ownRecords(api, [id])).get(id);
  api.check.that(record !== undefined, 'the conversation is listed as a record', id);
  return (record?.state as Record<string, unknown> | undefined) ?? {};
}

rule('bridge.path.internal-v1', 'serves the notification as POST /internal/v1/agentic-dial/bridge-ended', async (api) => {
  const res = await api.t.calls.bridgeEnded(body(await conversation(api)));
  api.check.success(res, 'the path answers 2xx to a valid notification');
});

for (const [rid, field, sentence] of [
  ['bridge.request.conversation-id-required', 'conversation_id', 'rejects a notification without conversation_id, or with one that is not a string'],
  [
    'bridge.request.bridge-duration-required',
    'bridge_duration_seconds',
    'rejects a notification without bridge_duration_seconds, or with one that is not a number',
  ],
  ['bridge.request.call-duration-required', 'call_duration_seconds', 'rejects a notification without call_duration_seconds, or with one that is not a number'],
] as const) {
  rule(rid, sentence, async (api) => {
    const id = await conversation(api);
    const missing = await api.t.calls.bridgeEnded(body(id, { [field]: undefined }));
    api.check.rejected(missing, `without ${field}: rejected`);
    errorBody(api, missing, 'the rejection');
    const wrongType = await api.t.calls.bridgeEnded(body(id, { [field]: field === 'conversation_id' ? 42 : '95' }));
    api.check.rejected(wrongType, `${field} of the wrong type: rejected`);
    errorBody(api, wrongType, 'the rejection');
  });
}

rule('bridge.request.accepted', 'accepts a notification with all three fields with a 2xx status', async (api) => {
  api.check.success(await api.t.calls.bridgeEnded(body(await conversation(api))), 'a complete notification is accepted');
});

rule('bridge.errors.error-message-body', 'carries a string error_message in every error body', async (api) => {
  const id = await conversation(api);
  for (const res of [
    await api.t.calls.bridgeEnded({ bridge_duration_seconds: 1, call_duration_seconds: 2 }),
    await api.t.calls.bridgeEnded(body(id), { headers: { [BridgeHeaders.apiKey]: undefined } }),
    await api.t.calls.bridgeEnded(body(id), { headers: { [BridgeHeaders.apiKey]: 'dialtone-not-a-real-key' } }),
  ]) {
    api.check.that(res.status >= 400, 'an error', res.status);
    errorBody(api, res, `the ${res.status}`);
  }
});

rule('bridge.effect.state-updated', "updates the conversation's state, as its record then shows", async (api) => {
  const id = await conversation(api);
  const before = await stateOf(api, id);
  api.check.success(await api.t.calls.bridgeEnded(body(id)), 'the notification is accepted');
  const after = await stateOf(api, id);
  api.check.that(JSON.stringify(after) !== JSON.stringify(before), 'the state changed', after);
  if (api.t.capabilities.has('control')) {
    api.check.equal(
      [after[BRIDGE_STATE_KEYS.bridgeDuration], after[BRIDGE_STATE_KEYS.callDuration]],
      [95.5, 240],
      'the reference target keeps both durations in the state',
    );
  }
});

rule(
  'bridge.effect.functions-receive-durations',
  "hands the bridge and call durations to the project's configured functions",
  async (api) => {
    const id = await conversation(api);
    api.check.success(await api.t.calls.bridgeEnded(body(id, { bridge_duration_seconds: 12, call_duration_seconds: 61 })), 'the notification is accepted');
    const { invocations } = await recordsControl(api).invocations(id);
    api.check.equal(
      invocations.map((i) => [i.bridge_duration_seconds, i.call_duration_seconds]),
      [[12, 61]],
      'one function call with bridge duration 12 and call duration 61',
    );
  },
  needs,
);

rule('bridge.auth.external-events-key', 'rejects a notification without X-Api-Key or with a key that is not the external-events key', async (api) => {
  const id = await conversation(api);
  api.check.rejected(await api.t.calls.bridgeEnded(body(id), { headers: { [BridgeHeaders.apiKey]: undefined } }), 'without X-Api-Key');
  const conversationsKey = api.t.records.secret('conversations_api_key');
  api.check.that(conversationsKey !== undefined, 'the profile names conversations_api_key', 'missing');
  api.check.rejected(await api.t.calls.bridgeEnded(body(id), { headers: { [BridgeHeaders.apiKey]: conversationsKey } }), 'with the conversations key');
});

rule('bridge.open.success-status', 'records the success status and body', async (api) => {
  const res = await api.t.calls.bridgeEnded(body(await conversation(api)));
  api.observe('answer', `${res.status} ${res.text.slice(0, 120)}`);
});

rule(
  'bridge.errors.rejections-not-success',
  'does not answer success to a notification with a missing field, a bad key or an unknown conversation',
  async (api) => {
    const id = await conversation(api);
    const answers = {
      'missing field': await api.t.calls.bridgeEnded({ conversation_id: id }),
      'bad key': await api.t.calls.bridgeEnded(body(id), { headers: { [BridgeHeaders.apiKey]: 'dialtone-not-a-real-key' } }),
      'unknown conversation': await api.t.calls.bridgeEnded(body(`conv-dialtone-${marker()}`)),
    };
    for (const [why, res] of Object.entries(answers)) api.check.notSuccess(res, `bridge-ended with ${why} is an error, not a success`);
  },
);

rule('bridge.open.error-statuses', 'records the statuses of rejected notifications', async (api) => {
  const id = await conversation(api);
  api.observe('statuses', {
    'missing field': (await api.t.calls.bridgeEnded({ conversation_id: id })).status,
    'bad key': (await api.t.calls.bridgeEnded(body(id), { headers: { [BridgeHeaders.apiKey]: 'dialtone-not-a-real-key' } })).status,
    'unknown conversation': (await api.t.calls.bridgeEnded(body(`conv-dialtone-${marker()}`))).status,
  });
});

rule(
  'bridge.open.not-configured',
  'records the answer for a project without call transfer or bridge configured',
  async (api) => {
    const { client } = await mintedRecords(api, { bridge: false });
    const p = await page(api, { ...windows(api.t).week, client_env: 'live', limit: 1 }, {}, client);
    const res = await api.t.calls.bridgeEnded(body(String(p.conversations[0]?.id)));
    api.observe('answer', `${res.status} ${res.text.slice(0, 120)}`);
  },
  needs,
);

rule('bridge.open.state-keys', 'records which state keys the notification writes', async (api) => {
  const id = await conversation(api);
  const before = await stateOf(api, id);
  await api.t.calls.bridgeEnded(body(id));
  const after = await stateOf(api, id);
  api.observe(
    'keys added or changed',
    Object.keys(after).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k])),
  );
});
