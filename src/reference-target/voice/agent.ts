import { VoiceFrame } from '../../contract/voice/shapes.js';
import type { VoiceClips, VoiceScript } from './opus.js';

/** The reference agent's voices, one per agent mode; traditional speaks lower, so the two are told apart by ear. */
export const VOICE_SCRIPTS = {
  'end-to-end': {
    greeting: [
      { hz: 440, ms: 160 },
      { hz: 550, ms: 140 },
      { hz: 660, ms: 200 },
      { hz: 440, ms: 220 },
    ],
    reply: [
      { hz: 520, ms: 180 },
      { hz: 620, ms: 240 },
    ],
  },
  traditional: {
    greeting: [
      { hz: 330, ms: 160 },
      { hz: 410, ms: 140 },
      { hz: 490, ms: 200 },
      { hz: 330, ms: 220 },
    ],
    reply: [
      { hz: 390, ms: 180 },
      { hz: 460, ms: 240 },
    ],
  },
} as const satisfies Record<string, VoiceScript>;
export type AgentMode = keyof typeof VOICE_SCRIPTS;

/** What the agent "says", as text for the conversation record. */
export const VOICE_TEXT = {
  greeting: 'Hello, you are through to the dialtone reference agent. How can I help you today?',
  reply: 'I can help with that.',
} as const;

/** Caller audio above this level counts as speech. */
export const SPEECH_DBFS = -45;
/** Speech shorter than this is a click, not a turn. */
const MIN_SPEECH_TICKS = 5;
/** A pause this long (400 ms) ends the caller's turn. */
const END_OF_TURN_TICKS = 20;

export interface AgentOptions {
  readonly clips: VoiceClips;
  /** Ticks between the end of the caller's turn and the reply (traditional mode waits for its speech pipeline). */
  readonly replyDelayTicks: number;
  /**
   * A drawn reply delay per turn, in ticks from the caller's last speech frame, that replaces `replyDelayTicks`
   * (`voice.reply` of a latency spec); never before the pause that ends the turn.
   */
  readonly drawReplyTicks?: () => number;
  /** Told of each completed turn: how long the caller spoke. */
  readonly onTurn?: (speechMs: number) => void;
}

/**
 * The voice agent of one call: greets when the call connects, then answers each caller turn (speech followed by a
 * pause) with its reply clip. It is driven by the shared ticker (`nextFrame` once per 20 ms) and by the caller's
 * decoded audio (`hear`).
 */
export class VoiceAgent {
  readonly #queue: Buffer[] = [];
  #speechTicks = 0;
  #quietTicks = 0;
  #replyIn = -1;
  #greetIn = -1;

  constructor(private readonly options: AgentOptions) {}

  /** Starts the greeting now, or after `afterTicks` ticks (the time to first audio a latency spec draws). */
  greet(afterTicks = 0): void {
    if (afterTicks > 0) this.#greetIn = afterTicks;
    else this.#queue.push(...this.options.clips.greeting);
  }

  /** Takes the level of one decoded caller frame. */
  hear(levelDbfs: number): void {
    if (levelDbfs < SPEECH_DBFS) return;
    this.#speechTicks++;
    this.#quietTicks = 0;
  }

  /** The packet to send on this tick: the next one of what the agent is saying, or silence. */
  nextFrame(): Buffer {
    this.#track();
    return this.#queue.shift() ?? this.options.clips.silence;
  }

  get speaking(): boolean {
    return this.#queue.length > 0;
  }

  /** Turn-taking runs on ticks, not on packets, so a caller that stops sending (DTX) still ends its turn. */
  #track(): void {
    if (this.#greetIn > 0 && --this.#greetIn === 0) {
      this.#queue.push(...this.options.clips.greeting);
      this.#greetIn = -1;
    }
    if (this.#replyIn > 0 && --this.#replyIn === 0) {
      this.#queue.push(...this.options.clips.reply);
      this.#replyIn = -1;
    }
    if (this.#speechTicks === 0) return;
    this.#quietTicks++;
    if (this.#quietTicks < END_OF_TURN_TICKS) return;
    if (this.#speechTicks >= MIN_SPEECH_TICKS) {
      this.options.onTurn?.(this.#speechTicks * VoiceFrame.ms);
      // A drawn delay counts from the caller's last speech, as a caller measures turn latency: the pause that ended the
      // turn is part of it, and a draw shorter than that pause replies as soon as the turn ends.
      const drawn = this.options.drawReplyTicks?.();
      this.#replyIn = drawn === undefined ? Math.max(1, this.options.replyDelayTicks) : Math.max(1, drawn - this.#quietTicks + 1);
    }
    this.#speechTicks = 0;
    this.#quietTicks = 0;
  }
}
