import { defineDefects } from '../defect.js';

/** Defects of the Chat API surface. Each breaks one documented rule the way a real regression would. */
export const ChatDefects = defineDefects({
  'chat-create-requires-body': {
    surface: 'chat',
    breaks: ['chat.create.body-optional'],
    description: 'chat/create without a body is rejected with 400 instead of starting a conversation.',
  },
  'chat-create-drops-conversation-id': {
    surface: 'chat',
    breaks: ['chat.create.response-fields', 'chat.create.fields-accepted', 'chat.create.variant-routes'],
    description: 'The create response omits conversation_id when the request carries an initial_message.',
  },
  'chat-whatsapp-rejected': {
    surface: 'chat',
    breaks: ['chat.create.channel-enum'],
    description: 'channel "whatsapp" is refused as if it were not in the enum.',
  },
  'chat-create-ignores-variant': {
    surface: 'chat',
    breaks: ['chat.create.variant-routes'],
    description: 'create drops variant_id, so every conversation is routed to the default variant.',
  },
  'chat-variant-changes-on-respond': {
    surface: 'chat',
    breaks: ['chat.create.variant-only-on-create'],
    description: 'A variant_id sent on respond is applied, moving the conversation to another variant.',
  },
  'chat-respond-without-id-accepted': {
    surface: 'chat',
    breaks: ['chat.respond.conversation-id-required'],
    description: 'respond without conversation_id answers 200 with a made-up conversation.',
  },
  'chat-goodbye-never-ends': {
    surface: 'chat',
    breaks: ['chat.respond.flagged-to-end'],
    description: 'end_conversation is always false, so no conversation is ever flagged to end.',
  },
  'chat-handoff-without-reason': {
    surface: 'chat',
    breaks: ['chat.respond.handoff-shape'],
    description: 'The handoff object lacks its reason field.',
  },
  'chat-close-success-false': {
    surface: 'chat',
    breaks: ['chat.close.success-true'],
    description: 'close answers success: false although it closed the conversation.',
  },
  'chat-close-fails-under-load': {
    surface: 'chat',
    breaks: ['chat.close.success-true'],
    description: 'Once more than 25 conversations were started in the last second, close answers success: false. Idle, every rule holds.',
    onlyUnderLoad: true,
  },
  'chat-prefixed-ids-refused': {
    surface: 'chat',
    breaks: ['chat.path.slug-and-prefixed-ids', 'chat.path.id-forms-across-a-conversation'],
    description: 'Only the slug form of account_id and project_id is accepted; the prefixed form is 404.',
  },
  'chat-respond-wrong-conversation-id': {
    surface: 'chat',
    breaks: ['chat.respond.response-fields', 'chat.path.id-forms-across-a-conversation'],
    description: 'respond answers with a conversation_id other than the one it was sent.',
  },
  'chat-respond-metadata-rejected': {
    surface: 'chat',
    breaks: ['chat.respond.optional-fields-accepted'],
    description: 'respond refuses the optional per-turn metadata object with 400.',
  },
  'chat-respond-closes-after-first-turn': {
    surface: 'chat',
    breaks: ['chat.respond.continues'],
    description: 'The conversation is silently closed after its first turn, although end_conversation was false.',
  },
  'chat-close-without-id-accepted': {
    surface: 'chat',
    breaks: ['chat.close.conversation-id-required'],
    description: 'close without a body, or without conversation_id, answers success: true.',
  },
  'chat-unknown-operation-served': {
    surface: 'chat',
    breaks: ['chat.path.operation-segment'],
    description: 'An operation segment other than create, respond or close is served as create.',
  },
  'chat-token-not-checked': {
    surface: 'chat',
    breaks: ['chat.auth.headers-required', 'chat.auth.invalid-credentials'],
    description: 'X-TOKEN is never checked: a request with only X-API-KEY, or a wrong token, is served.',
  },
});
