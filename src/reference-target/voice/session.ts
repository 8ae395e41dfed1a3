import type { PeerConfig, RTCPeerConnection } from 'werift';
import type { ErrorEntry } from '../../contract/rule.js';
import { type IceCandidateData, type OfferMessage, VoiceErrors, type VoiceMode } from '../../contract/voice/shapes.js';
import type { StoredConversation } from '../conversations.js';
import { VOICE_TEXT } from './agent.js';
import { type AnswerFaults, answerOffer } from './answerer.js';
import { type AgentDelays, MEDIA, type MediaHandle, type MediaStats } from './media.js';
import type { VoiceClips } from './opus.js';
import type { Ticker } from './ticker.js';

/** What every session shares: the one ticker, the encoded voices, the peer settings. */
export interface SessionDeps {
  readonly ticker: Ticker;
  readonly voices: Readonly<Record<'end-to-end' | 'traditional', VoiceClips>>;
  readonly peerConfig: Partial<PeerConfig>;
  readonly answerFaults: AnswerFaults;
  readonly echoSilence: boolean;
  /** Trickle the gateway's candidates (false only under a defect). */
  readonly trickle: boolean;
  /** A call whose media is not connected this long after the answer is reported MEDIA_BRIDGE_FAILURE. */
  readonly connectTimeoutMs: number;
  readonly now: () => number;
  /** The agent's drawn times under a latency spec (`dialtone target --latency`). */
  readonly agentDelays: AgentDelays;
}

/** How a session talks back: through the signaling socket that created it. */
export interface SessionLink {
  sendCandidate(sessionId: string, data: IceCandidateData): void;
  sendError(error: ErrorEntry, sessionId: string): void;
  ended(session: VoiceSession): void;
}

export type SessionState = 'negotiating' | 'connected' | 'ended';

/** What the control surface shows of a session. */
export interface SessionView {
  readonly sessionId: string;
  readonly mode: VoiceMode;
  readonly state: SessionState;
  readonly connectionState: string;
  readonly conversationId: string;
  readonly callSid: string | null;
  readonly caller: string | null;
  readonly callee: string | null;
  readonly variantId: string | null;
  readonly stats: MediaStats;
}

/**
 * One voice call: its werift peer connection, its media (echo or an agent) and its conversation record. It lives from
 * the answer until close, the socket's end, or a media failure.
 */
export class VoiceSession {
  state: SessionState = 'negotiating';
  readonly stats: MediaStats = { packetsIn: 0, packetsOut: 0, bytesIn: 0, bytesOut: 0 };
  readonly #pending: IceCandidateData[] = [];
  #answered = false;
  #media: MediaHandle | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #pc: RTCPeerConnection | undefined;

  private constructor(
    readonly id: string,
    readonly mode: VoiceMode,
    readonly conversation: StoredConversation,
    private readonly deps: SessionDeps,
    private readonly link: SessionLink,
  ) {}

  /** Negotiates the offer; the caller sends the returned answer SDP, then calls `answered()`. */
  static async open(
    id: string,
    offer: OfferMessage,
    record: () => StoredConversation,
    deps: SessionDeps,
    link: SessionLink,
  ): Promise<{ session: VoiceSession; sdp: string }> {
    const early: IceCandidateData[] = [];
    let created: VoiceSession | undefined;
    const answered = await answerOffer(offer.data.sdp, deps.peerConfig, deps.answerFaults, (c) => (created ? created.#candidate(c) : early.push(c)));
    try {
      // The record exists only for a call that was answered.
      const session = new VoiceSession(id, offer.mode, record(), deps, link);
      created = session;
      for (const c of early) session.#candidate(c);
      session.#pc = answered.pc;
      session.#media = MEDIA[offer.mode]({
        transceiver: answered.transceiver,
        ticker: deps.ticker,
        voices: deps.voices,
        stats: session.stats,
        echoSilence: deps.echoSilence,
        onTurn: (speechMs) => session.#turn(speechMs),
        delays: deps.agentDelays,
      });
      answered.pc.connectionStateChange.subscribe((s) => session.#connection(s));
      return { session, sdp: answered.sdp };
    } catch (e) {
      await answered.pc.close().catch(() => {});
      throw e;
    }
  }

  /** The answer went out: trickle what was gathered meanwhile, and start the connect watchdog. */
  answered(): void {
    this.#answered = true;
    for (const c of this.#pending.splice(0)) this.link.sendCandidate(this.id, c);
    this.#watchdog = setTimeout(() => this.fail(VoiceErrors.MEDIA_BRIDGE_FAILURE), this.deps.connectTimeoutMs);
    this.#watchdog.unref();
  }

  /** Applies a new offer from the client to the live peer connection and returns the answer. */
  async renegotiate(offerSdp: string): Promise<string> {
    if (!this.#pc) throw new Error('session has no peer connection');
    await this.#pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const answer = await this.#pc.createAnswer();
    await this.#pc.setLocalDescription(answer);
    return answer.sdp;
  }

  async addCandidate(data: IceCandidateData): Promise<void> {
    if (data.candidate === '' || !this.#pc) return; // end of candidates
    await this.#pc.addIceCandidate({ candidate: data.candidate, sdpMid: data.sdpMid ?? undefined, sdpMLineIndex: data.sdpMLineIndex ?? undefined });
  }

  /** Reports a failure on this session's socket and ends it. */
  fail(error: ErrorEntry): void {
    if (this.state === 'ended') return;
    this.link.sendError(error, this.id);
    void this.end();
  }

  async end(): Promise<void> {
    if (this.state === 'ended') return;
    this.state = 'ended';
    clearTimeout(this.#watchdog);
    this.#media?.stop();
    this.conversation.status = 'closed';
    this.conversation.endedAt = this.deps.now();
    this.link.ended(this);
    await this.#pc?.close().catch(() => {});
  }

  view(): SessionView {
    const c = this.conversation;
    return {
      sessionId: this.id,
      mode: this.mode,
      state: this.state,
      connectionState: this.#pc?.connectionState ?? 'new',
      conversationId: c.id,
      callSid: c.callSid ?? null,
      caller: c.caller ?? null,
      callee: c.callee ?? null,
      variantId: c.variantId ?? null,
      stats: { ...this.stats },
    };
  }

  #candidate(c: IceCandidateData): void {
    if (!this.deps.trickle || this.state === 'ended') return;
    if (this.#answered) this.link.sendCandidate(this.id, c);
    else this.#pending.push(c);
  }

  #connection(s: string): void {
    if (this.state === 'ended') return;
    if (s === 'connected' && this.state === 'negotiating') {
      this.state = 'connected';
      clearTimeout(this.#watchdog);
      this.#media?.start();
    } else if (s === 'failed') {
      this.fail(VoiceErrors.MEDIA_BRIDGE_FAILURE);
    }
  }

  #turn(speechMs: number): void {
    const now = this.deps.now();
    this.conversation.turns.push({
      userInput: `(caller audio, ${speechMs} ms)`,
      userAt: now,
      agentResponse: VOICE_TEXT.reply,
      agentAt: now,
      intent: 'acknowledge',
    });
  }
}
