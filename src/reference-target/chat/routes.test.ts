import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient } from '../../clients/chat.js';
import { ChatErrors } from '../../contract/chat/shapes.js';
import { type RunningTarget, startTarget } from '../server.js';

// The chat surface reads its bodies with the contract's shapes: what each refusal answers, and what the defects tied to
// those checks still break.

const invalid = (detail: string) => ({ error_message: `${ChatErrors.INVALID_FIELD.text}: ${detail}` });
const CHANNEL = 'channel must be one of webchat, whatsapp, sms, api';

describe('the chat surface reading bodies with the contract’s shapes', () => {
  let target: RunningTarget;
  let chat: ChatClient;
  beforeAll(async () => {
    target = await startTarget();
    chat = new ChatClient(target.loaded);
  });
  afterAll(async () => {
    await target?.close();
  });
  const open = async () => (await chat.create()).json?.conversation_id as string;

  it('creates with every documented field, and with no body at all', async () => {
    const full = await chat.create({
      integration_attributes: { crm: 'A-1' },
      variant_id: 'v2',
      channel: 'sms',
      asr_lang_code: 'en-GB',
      tts_lang_code: 'de-DE',
      initial_message: 'Hello',
    });
    expect(full.status).toBe(200);
    const conversation = target.context.conversations.get(full.json?.conversation_id ?? '');
    expect(conversation).toMatchObject({ channel: 'sms', variantId: 'v2', integrationAttributes: { crm: 'A-1' } });
    expect((await chat.create()).status).toBe(200);
  });

  it.each([
    [{ integration_attributes: 'crm' }, 'integration_attributes'],
    [{ variant_id: 2 }, 'variant_id'],
    [{ channel: 'fax' }, CHANNEL],
    [{ asr_lang_code: 'english' }, 'asr_lang_code'],
    [{ tts_lang_code: 'en_GB' }, 'tts_lang_code'],
    [{ initial_message: null }, 'initial_message'],
  ])('refuses create with %j as 400 naming the field', async (body, detail) => {
    const res = await chat.create(body);
    expect(res.status).toBe(ChatErrors.INVALID_FIELD.status);
    expect(res.json).toEqual(invalid(detail));
  });

  it('names the first refused field in the order the contract’s shape names them', async () => {
    const res = await chat.create({ tts_lang_code: 'x', variant_id: 1, integration_attributes: [] });
    expect(res.json).toEqual(invalid('integration_attributes'));
  });

  it('refuses a body that is not a JSON object', async () => {
    const res = await chat.create(undefined, { rawBody: '[1]' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(invalid('body must be a JSON object'));
  });

  it('refuses respond without a string conversation_id before anything else', async () => {
    for (const body of [{}, { conversation_id: 7, message: 1 }]) {
      const res = await chat.respond(body);
      expect(res.status).toBe(ChatErrors.CONVERSATION_ID_REQUIRED.status);
      expect(res.json).toEqual({ error_message: ChatErrors.CONVERSATION_ID_REQUIRED.text });
    }
  });

  it('finds the conversation and judges its state before the other fields', async () => {
    expect((await chat.respond({ conversation_id: 'conv-none', message: 1 })).json).toEqual({ error_message: ChatErrors.CONVERSATION_NOT_FOUND.text });
    const id = await open();
    await chat.close({ conversation_id: id });
    const closed = await chat.respond({ conversation_id: id, metadata: 'x' });
    expect(closed.status).toBe(ChatErrors.CONVERSATION_CLOSED.status);
  });

  it('refuses variant_id on respond, then each bad optional field', async () => {
    const id = await open();
    expect((await chat.respond({ conversation_id: id, variant_id: 'v2' })).json).toEqual({ error_message: ChatErrors.VARIANT_ONLY_ON_CREATE.text });
    expect((await chat.respond({ conversation_id: id, metadata: [] })).json).toEqual(invalid('metadata'));
    expect((await chat.respond({ conversation_id: id, message: { text: 'hi' } })).json).toEqual(invalid('message'));
    expect((await chat.respond({ conversation_id: id, asr_lang_code: 'en' })).json).toEqual(invalid('asr_lang_code'));
  });

  it('answers respond with every optional field, keeping the integration attributes', async () => {
    const id = await open();
    const res = await chat.respond({ conversation_id: id, message: 'Hi', metadata: { turn: 1 }, integration_attributes: { crm: 'B' }, tts_lang_code: 'en-US' });
    expect(res.status).toBe(200);
    expect(target.context.conversations.get(id)?.integrationAttributes).toEqual({ crm: 'B' });
  });

  it('refuses close without a string conversation_id', async () => {
    for (const body of [undefined, { conversation_id: 1 }]) {
      const res = await chat.close(body);
      expect(res.json).toEqual({ error_message: ChatErrors.CONVERSATION_ID_REQUIRED.text });
    }
  });
});

describe('the chat defects tied to reading bodies', () => {
  let target: RunningTarget;
  let chat: ChatClient;
  beforeAll(async () => {
    target = await startTarget({
      defects: [
        'chat-whatsapp-rejected',
        'chat-respond-metadata-rejected',
        'chat-variant-changes-on-respond',
        'chat-close-without-id-accepted',
        'chat-respond-without-id-accepted',
      ],
    });
    chat = new ChatClient(target.loaded);
  });
  afterAll(async () => {
    await target?.close();
  });

  it('chat-whatsapp-rejected refuses whatsapp alone among the channels', async () => {
    expect((await chat.create({ channel: 'whatsapp' })).json).toEqual(invalid(CHANNEL));
    expect((await chat.create({ channel: 'webchat' })).status).toBe(200);
  });

  it('chat-respond-metadata-rejected refuses a well-formed metadata object', async () => {
    const id = (await chat.create()).json?.conversation_id as string;
    expect((await chat.respond({ conversation_id: id, metadata: { turn: 1 } })).json).toEqual(invalid('metadata'));
    expect((await chat.respond({ conversation_id: id, message: 'Hi' })).status).toBe(200);
  });

  it('chat-variant-changes-on-respond moves the conversation to the variant sent', async () => {
    const id = (await chat.create({ variant_id: 'v1' })).json?.conversation_id as string;
    expect((await chat.respond({ conversation_id: id, variant_id: 'v2', message: 'Hi' })).status).toBe(200);
    expect(target.context.conversations.get(id)?.variantId).toBe('v2');
  });

  it('chat-close-without-id-accepted and chat-respond-without-id-accepted answer 200 without an id', async () => {
    expect((await chat.close(undefined)).json).toEqual({ success: true });
    expect((await chat.respond({ message: 'Hi' })).status).toBe(200);
  });
});
