import { z } from 'zod';
import type { RuleId } from './index.js';
import { ServerEvent } from './messaging/shapes.js';
import { MessagingPaths } from './messaging/wire.js';
import { AnswerMessage, CloseMessage, ErrorMessage, IceCandidateMessage, SignalingEnvelope } from './voice/shapes.js';
import { VoicePaths } from './voice/wire.js';

/** A documented message shape and the rule that states it. */
export interface EventShape {
  readonly schema: z.ZodType;
  readonly rule: RuleId;
}

/** The events one socket sends its client, as the documents give them: every frame's envelope, then its type's shape. */
export interface SocketEvents {
  /** The socket's path on its host. */
  readonly path: string;
  readonly envelope: EventShape;
  /** Shapes by the frame's `type`, where a document gives that type's shape. */
  readonly byType: Readonly<Record<string, EventShape>>;
}

/**
 * The two sockets' server events. The messaging catalogue of server events is not shown, so any type passes the
 * envelope (its wire names are the profile's); voice signaling documents each type the server sends.
 */
export const SOCKET_EVENTS: readonly SocketEvents[] = [
  {
    path: MessagingPaths.ws,
    envelope: { schema: ServerEvent.extend({ type: z.string().min(1) }), rule: 'messaging.events.server-envelope-fields' },
    byType: {},
  },
  {
    path: VoicePaths.signal,
    envelope: { schema: SignalingEnvelope, rule: 'voice.signaling.required-fields' },
    byType: {
      answer: { schema: AnswerMessage, rule: 'voice.signaling.answer-session-id' },
      'ice-candidate': { schema: IceCandidateMessage, rule: 'voice.signaling.ice-both-ways' },
      error: { schema: ErrorMessage, rule: 'voice.signaling.error-shape' },
      close: { schema: CloseMessage, rule: 'voice.signaling.close-ends-session' },
    },
  },
];
