import { defineRules } from '../rule.js';

const doc = 2 as const;
const surface = 'audio' as const;

const EP = 'Endpoints / Audio';

/** Every rule of the Audio API (document 2), one sentence each. */
export const AudioRules = defineRules({
  'audio.path.v3': {
    doc,
    surface,
    kind: 'field',
    section: 'Versioning',
    statement: 'Audio is served at /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio, with slug or prefixed ids.',
  },
  'audio.response.wav': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'A successful audio request is answered with a WAV file (a RIFF body of form type WAVE).',
  },
  'audio.response.content-type': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: EP,
    statement: 'The Content-Type of the WAV response is not shown.',
  },
  'audio.direction.default-combined': {
    doc,
    surface,
    kind: 'enum',
    section: EP,
    statement: 'Without direction the combined recording is returned, the same as direction=combined.',
  },
  'audio.direction.user': {
    doc,
    surface,
    kind: 'enum',
    section: EP,
    statement: 'direction=user is accepted and returns a WAV of the user side.',
  },
  'audio.direction.agent': {
    doc,
    surface,
    kind: 'enum',
    section: EP,
    statement: 'direction=agent is accepted and returns a WAV of the agent side.',
  },
  'audio.redacted.default-false': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'Omitting redacted returns the same recording as redacted=false.',
  },
  'audio.redaction.pii-false-raw': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'A caller with PII access and redacted false or omitted gets the raw recording.',
  },
  'audio.redaction.pii-true-redacted': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'A caller with PII access and redacted=true gets the redacted recording.',
  },
  'audio.redaction.no-pii-false-redacted': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'A caller without PII access and redacted false or omitted gets the redacted recording (enforced).',
  },
  'audio.redaction.no-pii-true-redacted': {
    doc,
    surface,
    kind: 'field',
    section: EP,
    statement: 'A caller without PII access and redacted=true gets the redacted recording.',
  },
  'audio.redaction.pii-access-model': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: EP,
    statement: 'How a key is granted PII access, and how a redacted recording differs from the raw one on the wire, are not shown.',
  },
  'audio.auth.x-api-key-required': {
    doc,
    surface,
    kind: 'status',
    section: 'Authentication',
    statement: 'An audio request without an x-api-key header, or with a key the operator did not issue, is rejected.',
  },
  'audio.errors.rejections-not-success': {
    doc,
    surface,
    kind: 'status',
    section: 'Errors',
    statement:
      'Whatever their status, audio requests for an unknown conversation, with a direction or redacted value outside the documented ones, or with a key of ' +
      'another project are errors: none is answered with success (2xx).',
  },
  'audio.errors.not-shown': {
    doc,
    surface,
    kind: 'open',
    open: true,
    section: 'Errors',
    statement: 'Audio error statuses and bodies (unknown conversation, no recording, a bad direction or redacted value, a rejected key) are not shown.',
  },
});
