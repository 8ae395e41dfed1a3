import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';

const REPLAYED = 'messaging.ws.replay-same-as-live';
const SAME_ON_EVERY_SOCKET = 'messaging.handoff.live-agent-reaches-session';

/** Where each messaging behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const MessagingAudit = {
  credentials: [
    ...credentials(
      ['messaging.access-token.missing-headers', 'messaging.access-token.connector-token-not-found', 'messaging.access-token.validate-connector-failed'],
      ['POST /api/v1/access-token'],
    ),
    ...credentials(
      ['messaging.session.missing-access-token', 'messaging.session.missing-auth-headers', 'messaging.session.invalid-access-token'],
      ['POST /api/v1/sessions'],
    ),
    ...credentials(['messaging.ws.auth-failed', 'messaging.ws.auth-failed-expired', 'messaging.ws.token-must-belong-to-session'], ['GET (WebSocket) /ws']),
  ],
  fields: [
    ...fields('POST /api/v1/sessions', {
      streaming_enabled: by('messaging.streaming.enabled-chunks'),
      platform: unobservable('what platform changes in a session is not shown (messaging.session.platform-enum checks each value is accepted)'),
    }),
  ],
  eventPaths: ['live', 'every-socket', 'replay'],
  events: [
    // Every server event: the envelope fields the documents give it.
    ...['id', 'timestamp', 'metadata'].map((field) => ({
      event: 'every server event',
      field,
      paths: { live: by('messaging.events.server-envelope-fields'), 'every-socket': by(SAME_ON_EVERY_SOCKET), replay: by(REPLAYED) },
    })),
    ...['type', 'payload'].map((field) => ({
      event: 'every server event',
      field,
      paths: { live: by('messaging.events.envelope-type-payload'), 'every-socket': by(SAME_ON_EVERY_SOCKET), replay: by(REPLAYED) },
    })),
    {
      event: 'every server event',
      field: 'metadata.custom',
      paths: { live: by('messaging.events.metadata-custom-echo'), 'every-socket': by(SAME_ON_EVERY_SOCKET), replay: by(REPLAYED) },
    },
    {
      event: 'EVENT_TYPE_SYSTEM_MESSAGE (an error answering one socket)',
      field: 'payload.level, payload.text',
      paths: {
        live: by('messaging.events.error-level'),
        'every-socket': unobservable('an error answers the socket that sent the bad event; whether other sockets see it is not shown'),
        replay: unobservable('which events enter the history is not shown (messaging.ws.history-contents records it)'),
      },
    },
    {
      event: "the live agent's message after a handoff",
      field: 'payload (the text)',
      paths: { live: by(SAME_ON_EVERY_SOCKET), 'every-socket': by(SAME_ON_EVERY_SOCKET), replay: by(SAME_ON_EVERY_SOCKET) },
    },
  ],
} satisfies SurfaceAudit;
