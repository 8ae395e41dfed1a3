import { defineRules } from '../rule.js';

const doc = 2 as const;
const surface = 'bridge' as const;

const EP = 'Endpoints / Bridge-ended';
const RES = 'Resources / Bridge-ended request';

/** Every rule of the bridge-ended notification (document 2), one sentence each. */
export const BridgeRules = defineRules({
  'bridge.path.internal-v1': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'The notification is served as POST /internal/v1/agentic-dial/bridge-ended.',
  },
  'bridge.request.conversation-id-required': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'A notification without conversation_id (a string) is rejected with an error_message body.',
  },
  'bridge.request.bridge-duration-required': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'A notification without bridge_duration_seconds (a number) is rejected with an error_message body.',
  },
  'bridge.request.call-duration-required': {
    doc,
    surface,
    kind: 'field',
    section: RES,
    statement: 'A notification without call_duration_seconds (a number) is rejected with an error_message body.',
  },
  'bridge.request.accepted': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'A notification with all three fields for a conversation of a project with call transfer or bridge configured is accepted with a 2xx status.',
  },
  'bridge.errors.error-message-body': {
    doc,
    surface,
    kind: 'field',
    section: 'Errors',
    statement: 'Every bridge-ended error body carries error_message, a string.',
  },
  'bridge.effect.state-updated': {
    doc,
    surface,
    kind: 'transition',
    section: EP,
    statement: "An accepted notification updates the conversation's state, as the record's state then shows.",
  },
  'bridge.effect.functions-receive-durations': {
    doc,
    surface,
    kind: 'event',
    section: EP,
    statement: "An accepted notification hands bridge duration and call duration to the project's configured functions.",
  },
  'bridge.auth.external-events-key': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: 'A notification without X-Api-Key, or with a key that is not an external-events key, is rejected.',
  },
  'bridge.open.success-status': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: EP,
    statement: 'The success status code and body of bridge-ended are not shown.',
  },
  'bridge.errors.rejections-not-success': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement:
      'Whatever their status, a bridge-ended notification with a missing field, a bad key or an unknown conversation is an error: it is not answered with ' +
      'success (2xx).',
  },
  'bridge.open.error-statuses': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'Bridge-ended error statuses (missing field, bad key, unknown conversation) are not shown.',
  },
  'bridge.open.not-configured': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: EP,
    statement: 'What bridge-ended answers for a project without call transfer or bridge configured is not shown.',
  },
  'bridge.open.state-keys': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: EP,
    statement: 'Which conversation state keys bridge-ended writes is not shown.',
  },
});
