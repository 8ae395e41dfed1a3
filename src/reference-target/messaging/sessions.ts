import type { Platform } from '../../contract/messaging/shapes.js';
import type { Clock } from '../clock.js';
import type { SeededRandom } from '../ids.js';
import { SessionHistory } from './history.js';

/** One-shot failures the control surface arms on a session; the next matching client event consumes one. */
export const SessionFault = [
  'retrieve-session',
  'start-failed',
  'high-load',
  'trouble-responding',
  'streaming-error',
  'forward-failed',
  'no-live-agent',
] as const;
export type SessionFault = (typeof SessionFault)[number];

/** A messaging session held by the reference target. Its sockets live in the socket hub, not here. */
export interface MessagingSession {
  readonly id: string;
  /** The connector whose access token created the session; sockets must present a token of the same connector. */
  readonly connectorId: string;
  readonly streaming: boolean;
  readonly platform: Platform;
  readonly userAgent: string | undefined;
  readonly createdAt: number;
  lastActivityAt: number;
  /** Every broadcast server event, oldest first: what EVENT_TYPE_EVENT_BATCH replays. */
  readonly history: SessionHistory;
  agentJoined: boolean;
  /** The conversation the join opened; it may since have been removed (`Error: Conversation not found`). */
  conversationId: string | undefined;
  liveAgent: boolean;
  readonly faults: SessionFault[];
  /** Client messages dropped by the socket rate limit. */
  dropped: number;
}

/**
 * In-memory sessions. A session idle for `idleMs()` (by the target clock) is expired: `get` forgets it, so it can
 * never be resumed. That documented expiry is the store's only bound: a session idle for less may still be resumed.
 * `onForget` hears of every session forgotten (expired or removed), so state kept beside it can go too.
 */
export class SessionStore {
  readonly #byId = new Map<string, MessagingSession>();
  #created = 0;
  constructor(
    private readonly clock: Clock,
    private readonly rng: SeededRandom,
    private readonly idleMs: () => number,
    private readonly onForget: (session: MessagingSession) => void = () => {},
  ) {}

  create(init: Pick<MessagingSession, 'connectorId' | 'streaming' | 'platform' | 'userAgent'>): MessagingSession {
    const now = this.clock.now();
    // Every field written here, in one order, so all sessions share one hidden class (a spread gave each its own: 400 B).
    const session: MessagingSession = {
      id: `sess_${this.rng.hex(24)}`,
      connectorId: init.connectorId,
      streaming: init.streaming,
      platform: init.platform,
      userAgent: init.userAgent,
      createdAt: now,
      lastActivityAt: now,
      history: new SessionHistory(),
      agentJoined: false,
      conversationId: undefined,
      liveAgent: false,
      faults: [],
      dropped: 0,
    };
    this.#byId.set(session.id, session);
    // Forget expired sessions now and then, so a long-running target (load runs) does not keep every one it made.
    if (++this.#created % 256 === 0) this.sweep();
    return session;
  }

  /** Forgets every expired session now (`create` does it every 256 sessions). */
  sweep(): void {
    for (const id of [...this.#byId.keys()]) this.get(id);
  }

  /** Sessions held, expired ones not yet swept included. */
  get size(): number {
    return this.#byId.size;
  }

  /** The live session, or undefined when unknown, removed or expired (an expired one is forgotten for good). */
  get(id: string): MessagingSession | undefined {
    const s = this.#byId.get(id);
    if (s && this.clock.now() - s.lastActivityAt >= this.idleMs()) {
      this.#byId.delete(id);
      this.onForget(s);
      return undefined;
    }
    return s;
  }

  /** Records activity, which postpones expiry. */
  touch(session: MessagingSession): void {
    session.lastActivityAt = Math.max(session.lastActivityAt, this.clock.now());
  }

  delete(id: string): boolean {
    const s = this.#byId.get(id);
    if (!s) return false;
    this.#byId.delete(id);
    this.onForget(s);
    return true;
  }

  /** Takes the first armed fault of one of `kinds`, if any. */
  takeFault(session: MessagingSession, ...kinds: SessionFault[]): SessionFault | undefined {
    const i = session.faults.findIndex((f) => kinds.includes(f));
    return i < 0 ? undefined : session.faults.splice(i, 1)[0];
  }
}
