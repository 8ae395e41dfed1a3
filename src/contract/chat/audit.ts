import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';
import { ChatOperation } from './shapes.js';

const INTEGRATION_ATTRIBUTES = 'where a conversation shows its integration attributes is not shown (the reference target keeps them in the record state)';
const LANGUAGES = 'chat replies are text: no documented surface shows the speech recognition or synthesis language';

/** Where each chat behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const ChatAudit = {
  credentials: credentials(['chat.auth.headers-required', 'chat.auth.invalid-credentials'], ChatOperation.options),
  fields: [
    ...fields('POST /{version}/{account_id}/{project_id}/chat/create', {
      integration_attributes: unobservable(INTEGRATION_ATTRIBUTES),
      variant_id: by('chat.create.variant-routes'),
      channel: unobservable(
        "a record's channel is an analytics label (VOICE-SIP, WEBCHAT, CHAT); how chat's channel maps to it is not shown " +
          '(conversations.record.shows-what-chat-sent records it)',
      ),
      asr_lang_code: unobservable(LANGUAGES),
      tts_lang_code: unobservable(LANGUAGES),
      initial_message: by('conversations.record.shows-what-chat-sent'),
    }),
    ...fields('POST /{version}/{account_id}/{project_id}/chat/respond', {
      conversation_id: by('conversations.record.shows-what-chat-sent'),
      message: by('conversations.record.shows-what-chat-sent'),
      integration_attributes: unobservable(INTEGRATION_ATTRIBUTES),
      metadata: unobservable('what respond does with metadata is not shown'),
      asr_lang_code: unobservable(LANGUAGES),
      tts_lang_code: unobservable(LANGUAGES),
    }),
    ...fields('PUT /{version}/{account_id}/{project_id}/chat/close', { conversation_id: by('conversations.record.in-progress-state') }),
  ],
  events: [],
} satisfies SurfaceAudit;
