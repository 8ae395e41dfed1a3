import { ChatChannel, ChatCreateResponse } from '../../src/contract/chat/shapes.js';
import { rule } from '../../src/suite/case.js';

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
