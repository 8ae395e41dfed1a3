import { ChatChannel, ChatCreateResponse } from '../../src/contract/chat/shapes.js';
import { rule } from '../../src/suite/case.js';
import { missingFor } from '../../src/suite/surfaces.js';
import { chatConversation, marker, ownRecords } from '../conversations/records.js';

rule('chat.create.body-optional', 'starts a conversation when create is sent with no body at all', async ({ t, check }) => {
  const res = await t.chat.create(undefined);
  check.success(res, 'create with no body starts a conversation');
  check.schema(res, ChatCreateResponse, 'conversation_id (string) and response (string)');
});

rule('chat.create.response-fields', 'answers create with conversation_id and the agent response as strings', async ({ t, check }) => {
  const res = await t.chat.create({ initial_message: 'Hello there' });
  check.success(res);
  const body = check.schema(res, ChatCreateResponse, 'conversation_id (string, required), response (string, required)');
  check.that(body.conversation_id.length > 0, 'a non-empty conversation_id', body.conversation_id);
  check.that(body.response.length > 0, "a non-empty response (the agent's initial message)", body.response);
});

rule('chat.create.fields-accepted', 'accepts every documented create field in one request', async ({ t, check }) => {
  const res = await t.chat.create({
    integration_attributes: { customer_tier: 'gold', order: 42 },
    ...(t.profile.variant_id ? { variant_id: t.profile.variant_id } : {}),
    channel: 'webchat',
    asr_lang_code: 'en-GB',
    tts_lang_code: 'en-GB',
    initial_message: 'I would like to check my order',
  });
  check.success(res, 'all six create fields accepted');
  check.schema(res, ChatCreateResponse, 'the create response');
});

rule('chat.create.channel-enum', 'accepts each of the four documented channels', async ({ t, check }) => {
  for (const channel of ChatChannel.options) {
    const res = await t.chat.create({ channel });
    check.success(res, `channel "${channel}" accepted`);
  }
});

rule('chat.create.channel-unknown', 'records what create answers for a channel outside the enum', async ({ t, observe }) => {
  const res = await t.chat.create({ channel: 'carrier-pigeon' });
  observe('status for channel "carrier-pigeon"', `${res.status} ${res.text.slice(0, 200)}`);
});

rule('chat.create.variant-routes', 'routes a conversation created with a variant other than the default to that variant, as its record shows', async (api) => {
  const { t, check } = api;
  // Document 2's record is where a documented surface shows the variant a conversation was routed to.
  const missing = missingFor('conversations', t.loaded);
  if (missing) api.skip(`the record that shows a conversation's variant cannot be read: ${missing}`);
  const recordOf = async (id: string, what: string) => {
    const record = (await ownRecords(api, [id])).get(id);
    check.that(record !== undefined, `the conversation created ${what} is listed as a record`, 'not found in the recent window');
    return record?.variant_id;
  };
  // Routing to the default is what a create that ignores variant_id does too: only another variant shows the routing.
  const fallback = await recordOf(await chatConversation(api, `Which site am I on ${marker()}`), 'without variant_id');
  const routed = [t.profile.variant_id_alt, t.profile.variant_id].find((v) => v !== undefined && v !== fallback);
  if (routed === undefined) {
    api.skip(
      `could not decide: the profile names no variant other than ${String(fallback)}, which a create without variant_id gets (name one in variant_id_alt)`,
    );
  }
  const variant = await recordOf(await chatConversation(api, `Route me please ${marker()}`, { variant_id: routed }), `with variant_id ${routed}`);
  check.equal(variant, routed, `the record's variant_id is ${routed}, the variant create named (not ${String(fallback)}, the default)`);
});

rule(
  'chat.create.variant-only-on-create',
  'keeps the variant chosen on create when respond names another one',
  async ({ t, check, observe }) => {
    const [first, second] = ['VARIANT-main', 'VARIANT-north'];
    const created = await t.chat.create({ variant_id: t.profile.variant_id ?? first });
    check.success(created);
    const id = check.schema(created, ChatCreateResponse, 'the create response').conversation_id;
    const before = await t.control.conversation(id);
    const res = await t.chat.respond({ conversation_id: id, message: 'Hello', variant_id: second });
    observe('respond carrying variant_id answered', res.status);
    const after = await t.control.conversation(id);
    check.equal(after.variant_id, before.variant_id, `the variant stays ${before.variant_id} after respond`);
  },
  { needs: ['control'] },
);
