import { describe, expect, it } from 'vitest';
import { ChatCloseRequest, ChatCreateRequest, ChatRespondRequest } from '../contract/chat/shapes.js';
import { checkBody } from './checked-body.js';

describe('a body read through a contract shape', () => {
  it('gives the parsed data when the shape accepts it, unknown keys dropped', () => {
    expect(checkBody(ChatCloseRequest, { conversation_id: 'conv-1', extra: 1 })).toEqual({ ok: true, data: { conversation_id: 'conv-1' } });
  });

  it('reads a body left out as an empty object: fine where every field is optional, a missing field where one is required', () => {
    expect(checkBody(ChatCreateRequest, undefined)).toEqual({ ok: true, data: {} });
    expect(checkBody(ChatCloseRequest, undefined)).toEqual({ ok: false, fields: ['conversation_id'] });
  });

  it('names each refused top-level field once, in the order the shape names them', () => {
    const body = { tts_lang_code: 'english', channel: 'fax', integration_attributes: [], variant_id: 3 };
    expect(checkBody(ChatCreateRequest, body)).toEqual({ ok: false, fields: ['integration_attributes', 'variant_id', 'channel', 'tts_lang_code'] });
  });

  it('names the field of a nested refusal by its top-level name', () => {
    expect(checkBody(ChatRespondRequest, { conversation_id: 'c', metadata: { a: 1 }, asr_lang_code: 'en-gb' })).toEqual({
      ok: false,
      fields: ['asr_lang_code'],
    });
  });

  it('names the body itself as the empty field when it is not an object', () => {
    expect(checkBody(ChatCreateRequest, ['a'])).toEqual({ ok: false, fields: [''] });
  });
});
