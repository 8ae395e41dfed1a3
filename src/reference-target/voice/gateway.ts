import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { OfferMessage } from '../../contract/voice/shapes.js';
import { VoiceFrame } from '../../contract/voice/shapes.js';
import type { TargetContext } from '../context.js';
import type { StoredConversation } from '../conversations.js';
import type { Engine } from './engine.js';
import { ForcedFailures } from './faults.js';
import { IceServerIssuer } from './ice.js';
import { Seats } from './seats.js';
import type { SessionDeps, SessionLink, SessionView, VoiceSession } from './session.js';
import { type GatewayPort, SignalingConnection } from './signaling.js';
import { Ticker } from './ticker.js';

/** Media that has not connected this long after the answer is reported MEDIA_BRIDGE_FAILURE. */
const CONNECT_TIMEOUT_MS = 15_000;
/** Ended sessions the control surface still shows. */
const RECENT_SESSIONS = 200;
/** Signaling frames are small JSON; an SDP is a few kilobytes. */
const MAX_FRAME_BYTES = 256 * 1024;

/**
 * The browser voice gateway of one target: the signaling sockets, the live sessions, the one shared ticker, the
 * forced failures and the ICE server issuer. The media engine (werift, Opus, the voices) loads in the background from
 * the first voice request (ice-servers or a signaling socket); the first offer waits for it to load, not for its
 * warm-up call. A target that serves no call never loads it: about half a second of CPU at each start,
 * which every chat, messaging or capacity run against the embedded target paid.
 */
export class VoiceGateway implements GatewayPort {
  readonly ticker = new Ticker(VoiceFrame.ms);
  readonly faults = new ForcedFailures();
  readonly iceServers = new IceServerIssuer();
  readonly #live = new Map<string, VoiceSession>();
  readonly #recent: SessionView[] = [];
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  readonly #abort = new AbortController();
  #engine: Promise<Engine> | undefined;
  /** The agent's seats at a known voice capacity (calls at once); none: every call is answered at once. */
  #seats: Seats | undefined;

  constructor(readonly ctx: TargetContext) {}

  /** A known voice capacity (`--capacity voice=N`): N calls at once, the offers of any more held until a call ends. */
  atCapacity(calls: number): void {
    this.#seats = new Seats(Math.max(1, Math.floor(calls)));
  }

  /** The media engine, loading from the first call on. */
  engine(): Promise<Engine> {
    if (this.#engine) return this.#engine;
    // A request that arrives while the target closes does not start a load nobody will wait for.
    if (this.#abort.signal.aborted) {
      const closed = Promise.reject(new Error('the voice gateway is closed'));
      closed.catch(() => {}); // the callers that only start the load do not await it
      return closed;
    }
    this.#engine = import('./engine.js').then((m) => m.startEngine(this.#abort.signal));
    // Until a call awaits it, a failed load is reported by the first offer (HANDLER_ERROR), not as an unhandled rejection.
    this.#engine.catch(() => {});
    return this.#engine;
  }

  async openSession(id: string, offer: OfferMessage, record: () => StoredConversation, link: SessionLink, localAddress: string) {
    await this.#seats?.take(id);
    try {
      const engine = await this.engine();
      return await engine.open(id, offer, record, this.#deps(engine, localAddress), link);
    } catch (e) {
      this.#seats?.release(id);
      throw e;
    }
  }

  #deps(engine: Engine, localAddress: string): SessionDeps {
    const d = this.ctx.defects;
    const { latency } = this.ctx;
    return {
      ticker: this.ticker,
      voices: engine.voices,
      peerConfig: engine.peerConfig(localAddress.replace(/^::ffff:/, '')),
      answerFaults: { recvonly: d.has('voice-recvonly-answer'), mono: d.has('voice-mono-opus-answer') },
      echoSilence: d.has('voice-echo-returns-silence'),
      trickle: !d.has('voice-no-server-candidates'),
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      now: () => this.ctx.clock.now(),
      agentDelays: {
        ...(latency.has('voice.first_agent_audio') ? { greeting: () => latency.draw('voice.first_agent_audio') } : {}),
        ...(latency.has('voice.reply') ? { reply: () => latency.draw('voice.reply') } : {}),
      },
    };
  }

  newSessionId(): string {
    return `vs-${this.ctx.rng.hex(24)}`;
  }

  opened(session: VoiceSession): void {
    this.#live.set(session.id, session);
  }

  ended(session: VoiceSession): void {
    this.#seats?.release(session.id);
    // Every ended call's record counts against the retention, one that never went live included.
    this.ctx.conversations.close(session.conversation);
    if (!this.#live.delete(session.id)) return;
    this.#recent.push(session.view());
    if (this.#recent.length > RECENT_SESSIONS) this.#recent.shift();
  }

  /** Live sessions, then recently ended ones, for the control surface. */
  sessions(): SessionView[] {
    return [...[...this.#live.values()].map((s) => s.view()), ...this.#recent];
  }

  /** Calls seated and waiting at a known voice capacity, for the control surface; undefined without one. */
  get seats(): { readonly seated: number; readonly waiting: number } | undefined {
    return this.#seats?.counts;
  }

  /** Takes over an HTTP upgrade on the signaling path. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    void this.engine();
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      new SignalingConnection(ws, this, req.socket.localAddress ?? '127.0.0.1');
    });
  }

  async close(): Promise<void> {
    this.#abort.abort();
    this.ticker.close();
    await Promise.allSettled([...this.#live.values()].map((s) => s.end()));
    for (const ws of this.#wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    await this.#engine?.then((e) => e.warmed).catch(() => {});
  }
}
