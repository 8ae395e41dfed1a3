import { ChatCreateResponse, ChatRespondResponse, Handoff } from '../../src/contract/chat/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

/** Starts a conversation and returns its id; every respond case needs one. */
async function started({ t, check }: CaseApi): Promise<string> {
  const res = await t.chat.create({ channel: 'api' });
  check.success(res, 'create succeeds');
  return check.schema(res, ChatCreateResponse, 'the create response').conversation_id;
}

rule('chat.respond.conversation-id-required', 'rejects respond without conversation_id', async (api) => {
  const res = await api.t.chat.respond({ message: 'Hello' });
  api.check.rejected(res, 'respond without conversation_id is rejected');
  api.observe('status', res.status);
});

rule('chat.respond.response-fields', 'answers respond with conversation_id, response and end_conversation', async (api) => {
  const id = await started(api);
  const res = await api.t.chat.respond({ conversation_id: id, message: 'What are your opening hours?' });
  api.check.success(res);
  const body = api.check.schema(res, ChatRespondResponse, 'conversation_id, response (string), end_conversation (boolean)');
  api.check.equal(body.conversation_id, id, 'the conversation_id of the request');
});

rule('chat.respond.optional-fields-accepted', 'accepts every optional respond field in one request', async (api) => {
  const id = await started(api);
  const res = await api.t.chat.respond({
    conversation_id: id,
    message: 'Checking on my booking',
    integration_attributes: { booking: 'B-77' },
    metadata: { turn_source: 'dialtone' },
    asr_lang_code: 'en-US',
    tts_lang_code: 'en-US',
  });
  api.check.success(res, 'all optional respond fields accepted');
  api.check.schema(res, ChatRespondResponse, 'the respond response');
});

rule('chat.respond.continues', 'answers a further respond after end_conversation false', async (api) => {
  const id = await started(api);
  const first = await api.t.chat.respond({ conversation_id: id, message: 'I have a question about my bill' });
  const body = api.check.schema(first, ChatRespondResponse, 'the respond response');
  api.check.equal(body.end_conversation, false, 'end_conversation false for an ordinary question');
  const second = await api.t.chat.respond({ conversation_id: id, message: 'It is about last month' });
  api.check.success(second, 'the conversation continues');
  api.check.schema(second, ChatRespondResponse, 'the respond response');
});

rule('chat.respond.flagged-to-end', 'answers end_conversation true when the user says goodbye', async (api) => {
  const id = await started(api);
  const res = await api.t.chat.respond({ conversation_id: id, message: api.t.profile.chat_script.goodbye_message });
  const body = api.check.schema(res, ChatRespondResponse, 'the respond response');
  api.check.equal(body.end_conversation, true, 'end_conversation true (conversation flagged to end)');
});

rule('chat.respond.handoff-shape', 'carries handoff with destination and reason when the user asks for a person', async (api) => {
  const id = await started(api);
  const res = await api.t.chat.respond({ conversation_id: id, message: api.t.profile.chat_script.handoff_message });
  const body = api.check.schema(res, ChatRespondResponse, 'the respond response');
  api.check.that(body.handoff !== undefined, 'a handoff object when a handoff applies', res.text);
  const parsed = Handoff.safeParse(body.handoff);
  api.check.that(parsed.success, 'handoff with destination (string) and reason (string)', JSON.stringify(body.handoff));
  api.check.names(body.handoff, Handoff, 'handoff with destination (string) and reason (string)');
});

rule('chat.respond.unknown-conversation', 'records what respond answers for an unknown conversation_id', async ({ t, observe }) => {
  const res = await t.chat.respond({ conversation_id: 'conv-does-not-exist-0000', message: 'Hello' });
  observe('status', `${res.status} ${res.text.slice(0, 200)}`);
});
