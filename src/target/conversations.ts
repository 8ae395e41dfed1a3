import type { Clock } from './clock.js';
import type { SeededRandom } from './ids.js';

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

/** In-memory conversations, keyed by id. */
export class ConversationStore {
  readonly #byId = new Map<string, StoredConversation>();
  constructor(
    private readonly clock: Clock,
    private readonly rng: SeededRandom,
  ) {}

  create(
    init: Pick<StoredConversation, 'source' | 'channel' | 'variantId' | 'integrationAttributes'> &
      Partial<Pick<StoredConversation, 'caller' | 'callee' | 'callSid'>>,
  ): StoredConversation {
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

  get(id: string): StoredConversation | undefined {
    return this.#byId.get(id);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Every conversation, read-only, for views such as alert metrics over recent turns. */
  values(): IterableIterator<StoredConversation> {
    return this.#byId.values();
  }
}
