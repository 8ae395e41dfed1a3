import type { Clock } from './clock.js';
import type { SeededRandom } from './ids.js';
import { DEFAULT_RETENTION, FinishedOrder, type Retention } from './retention.js';

/** One exchange of a conversation, as records (document 2) will later show it. */
export interface StoredTurn {
  readonly userInput: string;
  readonly userAt: number;
  readonly agentResponse: string;
  readonly agentAt: number;
  readonly intent: string;
}

export type ConversationStatus = 'open' | 'flagged-to-end' | 'closed';

/** A conversation held by the reference target, whatever surface made it. */
export interface StoredConversation {
  readonly id: string;
  readonly source: 'chat' | 'voice';
  readonly channel: string;
  readonly startedAt: number;
  variantId: string | undefined;
  status: ConversationStatus;
  handoff: { destination: string; reason: string } | undefined;
  integrationAttributes: Record<string, unknown> | undefined;
  readonly turns: StoredTurn[];
  /** Voice calls: the calling and called numbers and the call identifier the offer carried. */
  readonly caller?: string;
  readonly callee?: string;
  readonly callSid?: string;
  /** When the conversation ended (voice: the call's session ended). */
  endedAt?: number;
}

/**
 * In-memory conversations, keyed by id. Closed ones are kept within the retention (most `maxCount`, each at most
 * `maxAge` after it closed, oldest closed first out); open ones, flagged to end included, are kept while they are open,
 * since a client may still use them. The seeded history is not here (the records store makes it), so it is never let go.
 */
export class ConversationStore {
  readonly #byId = new Map<string, StoredConversation>();
  readonly #closed: FinishedOrder<string>;
  readonly #forgetListeners: ((id: string) => void)[] = [];
  constructor(
    private readonly clock: Clock,
    private readonly rng: SeededRandom,
    readonly retention: Retention = DEFAULT_RETENTION,
  ) {
    this.#closed = new FinishedOrder(retention);
  }

  create(
    init: Pick<StoredConversation, 'source' | 'channel' | 'variantId' | 'integrationAttributes'> &
      Partial<Pick<StoredConversation, 'caller' | 'callee' | 'callSid'>>,
  ): StoredConversation {
    this.#sweep();
    const conversation: StoredConversation = {
      ...init,
      id: `conv-${this.rng.hex(20)}`,
      startedAt: this.clock.now(),
      status: 'open',
      handoff: undefined,
      turns: [],
    };
    this.#byId.set(conversation.id, conversation);
    return conversation;
  }

  /**
   * Closes a conversation (chat close, a voice call's end): from now on it counts against the retention. Closing
   * again keeps the first closing time.
   *
   * @example
   * store.close(store.create({ source: 'chat', channel: 'api', variantId: undefined, integrationAttributes: undefined }));
   */
  close(conversation: StoredConversation): void {
    conversation.status = 'closed';
    if (this.#byId.get(conversation.id) === conversation) this.#closed.finish(conversation.id, conversation.endedAt ?? this.clock.now());
    this.#sweep();
  }

  get(id: string): StoredConversation | undefined {
    this.#sweep();
    return this.#byId.get(id);
  }

  get size(): number {
    this.#sweep();
    return this.#byId.size;
  }

  /** Every conversation, read-only, for views such as alert metrics over recent turns. */
  values(): IterableIterator<StoredConversation> {
    this.#sweep();
    return this.#byId.values();
  }

  /** Calls `listener` with the id of each conversation the retention lets go (state kept elsewhere for it goes too). */
  onForget(listener: (id: string) => void): void {
    this.#forgetListeners.push(listener);
  }

  /** Lets go of closed conversations beyond the retention; cheap when there are none (one look at the oldest). */
  #sweep(): void {
    for (const id of this.#closed.expire(this.clock.now())) {
      this.#byId.delete(id);
      for (const listener of this.#forgetListeners) listener(id);
    }
  }
}
