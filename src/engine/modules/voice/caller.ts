// One werift caller of the documented flow (document 1): a signaling socket, an offer carrying the voice auth token,
// candidates trickled once the answer gave the session, the gateway's candidates applied, media both ways, close. It
// speaks the shipped utterance for each turn, then silence, and listens: every figure is read from the wire.
import { Decoder } from '@evan/opus';
import { type RTCIceServer, RTCPeerConnection, RTCRtpCodecParameters, type RTCRtpTransceiver, RtpHeader, RtpPacket } from 'werift';
import { mosOf, mouthToEarMs, rFactor } from './e-model.js';
import { AUDIBLE_DBFS, InboundAudio } from './inbound.js';
import type { Pacer } from './pacer.js';
import { type Message, Signaling, type SocketTls } from './signaling.js';
import { CHANNELS, FRAME_MS, FRAME_SAMPLES, RATE, type Voice } from './utterance.js';

/** What a call does, as the scenario asks it. */
export interface CallSpec {
  /** The gateway's signaling socket (wss://…/api/v1/webrtc/signal). */
  readonly signalingUrl: string;
  /** The offer's fields beside type, sessionId and data: authToken, callSid, mode, … as the documents name them. */
  readonly offer: Readonly<Record<string, unknown>>;
  readonly iceServers?: readonly RTCIceServer[];
  /**
   * Hand the gateway's TURN servers to werift too. Off by default: werift gathers every candidate before
   * setLocalDescription returns, so a TURN server it cannot reach holds each offer for its timeout (seconds), where a
   * browser would trickle; the caller then connects through host and STUN candidates, as one on the gateway's network.
   */
  readonly turn?: boolean;
  /** Caller turns after the greeting; 0 only listens to the greeting. */
  readonly turns: number;
  /** Silence between the end of the agent's reply and the caller's next turn, in ms. */
  readonly pauseMs: number;
  /**
   * Turns on a schedule: each begins this long after the one before (after the pause, if the reply ran late), so a
   * held call offers a known rate of turns. Absent: each turn follows the last reply after the pause.
   */
  readonly turnEveryMs?: number;
  /** Silence held after the last turn before hanging up, in ms. */
  readonly holdMs: number;
  readonly connectTimeoutMs: number;
  /** The longest wait for the agent's greeting, and for each reply after a turn. */
  readonly audioTimeoutMs: number;
  /** No turn begins once the call has lasted this long (a call held for a capacity step); absent: `turns` decides. */
  readonly untilMs?: number;
  /** Told of each turn as it ends, so a scenario can record it at once (a held call's turns fall in different phases). */
  readonly onTurn?: (t: TurnResult) => void;
}

/** Where a call failed: the step of the flow it was in. */
export type CallPhase = 'signaling' | 'offer' | 'connect' | 'greeting' | 'turn' | 'close';

/** One caller turn: the utterance ended, the agent's reply began (null: no reply within the timeout). */
export interface TurnResult {
  readonly turn: number;
  /** From the caller's last utterance frame sent to the first audible frame of the reply received, in ms. */
  readonly latencyMs: number | null;
}

/** What one call measured. Times are milliseconds from the start of the call (before its signaling socket opened). */
export interface CallResult {
  readonly ok: boolean;
  readonly error: { readonly phase: CallPhase; readonly message: string } | null;
  readonly offerToAnswerMs: number | null;
  readonly timeToConnectedMs: number | null;
  readonly timeToFirstAgentAudioMs: number | null;
  readonly turns: readonly TurnResult[];
  readonly packetsSent: number;
  readonly packetsReceived: number;
  readonly packetsLost: number;
  /** Lost against expected, 0..1. */
  readonly loss: number;
  /** RFC 3550 interarrival jitter of the agent's audio at hang-up, ms. */
  readonly jitterMs: number;
  /** The round trip of the caller's RTCP sender reports, as the gateway's receiver reports return them; null without any. */
  readonly rttMs: number | null;
  /** Frames the decoder concealed against frames it played, 0..1. */
  readonly concealedShare: number;
  readonly rFactor: number;
  readonly mos: number;
  readonly durationMs: number;
}

/** Silence this long after agent audio ends what the agent was saying (the reference agent pauses less inside a reply). */
const END_OF_SPEECH_MS = 300;

/**
 * Agent audio after at least this much silence is the onset of something said (the reference agent's gaps inside a
 * reply are 60 ms; its replies follow the caller's turn by 400 ms or more).
 */
const ONSET_GAP_MS = 100;

/** A fresh codec list per peer connection: werift assigns payload types into these objects. */
const codecs = () => ({ audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: RATE, channels: CHANNELS })] });

const LOOPBACK = /^(127\.|localhost$|\[?::1\]?$)/;

/** The caller's side of one call. */
class Call {
  readonly #t0 = performance.now();
  readonly #pc: RTCPeerConnection;
  readonly #transceiver: RTCRtpTransceiver;
  readonly #inbound: InboundAudio;
  /** Who waits for agent audio, each with the time after which a frame counts. */
  readonly #watchers = new Map<(at: number | null) => void, number>();
  #signaling: Signaling | undefined;
  #sessionId = '';
  #answered = false;
  #early: Record<string, unknown>[] = [];
  #stopSending: (() => void) | undefined;
  /** Index of the next utterance frame while speaking; -1 while silent. */
  #speaking = -1;
  #utteranceEnd: (() => void) | undefined;
  #seq = Math.floor(Math.random() * 0x10000);
  #ts = Math.floor(Math.random() * 0x100000000);
  #sent = 0;
  /** Arrival of the first and the last audible frame (performance.now() times; -1 before any). */
  #lastAudibleAt = -1;
  #firstAudibleAt = -1;
  #closed = false;

  constructor(
    private readonly spec: CallSpec,
    private readonly tls: SocketTls,
    private readonly voice: Voice,
    private readonly pacer: Pacer,
    private readonly signal: AbortSignal,
  ) {
    const host = new URL(spec.signalingUrl).hostname;
    this.#pc = new RTCPeerConnection({
      codecs: codecs(),
      iceServers: spec.turn ? [...(spec.iceServers ?? [])] : stunOnly(spec.iceServers ?? []),
      iceUseIpv6: false,
      // UDP only: werift's TCP candidates can hold gathering for 5 s.
      iceUseTcp: false,
      // A gateway on this machine is reached on loopback: werift leaves loopback out of its host candidates otherwise.
      ...(LOOPBACK.test(host) ? { iceUseIpv4: false, iceAdditionalHostAddresses: ['127.0.0.1'] } : {}),
    });
    this.#transceiver = this.#pc.addTransceiver('audio', { direction: 'sendrecv' });
    this.#inbound = new InboundAudio(new Decoder({ channels: CHANNELS, sample_rate: RATE }), RATE / 1000, (dbfs, at) => this.#level(dbfs, at));
  }

  #since(): number {
    return performance.now() - this.#t0;
  }

  async run(): Promise<CallResult> {
    const r = { offerToAnswerMs: null as number | null, timeToConnectedMs: null as number | null, timeToFirstAgentAudioMs: null as number | null };
    const turns: TurnResult[] = [];
    let error: CallResult['error'] = null;
    const fail = (phase: CallPhase, message: string) => {
      error ??= { phase, message };
    };
    try {
      const s = this.spec;
      try {
        this.#signaling = await Signaling.open(s.signalingUrl, this.tls, s.connectTimeoutMs);
      } catch (e) {
        fail('signaling', (e as Error).message);
        return this.#result(r, turns, error);
      }
      const answer = await this.#offer();
      if (typeof answer === 'string') {
        fail('offer', answer);
        return this.#result(r, turns, error);
      }
      r.offerToAnswerMs = answer;
      if (!(await this.#connected(s.connectTimeoutMs))) {
        fail('connect', `not connected within ${s.connectTimeoutMs} ms (ICE ${this.#pc.iceConnectionState}, connection ${this.#pc.connectionState})`);
        return this.#result(r, turns, error);
      }
      r.timeToConnectedMs = this.#since();
      this.#stopSending = this.pacer.add(() => this.#sendFrame());
      if (!(await this.#greeting(s.audioTimeoutMs))) {
        fail('greeting', `no agent audio within ${s.audioTimeoutMs} ms of connecting`);
        return this.#result(r, turns, error);
      }
      r.timeToFirstAgentAudioMs = this.#firstAudibleAt - this.#t0;
      const more = () => !this.signal.aborted && (s.untilMs === undefined || this.#since() < s.untilMs);
      // A scheduled call's first turn falls at a random point of its first period, so held calls' turns do not arrive
      // in step with each other and a window of the step counts its share of them whatever its edges.
      let due = performance.now() + (s.turnEveryMs ?? 0) * Math.random();
      for (let turn = 1; turn <= s.turns && more(); turn++) {
        await this.#quietFor(END_OF_SPEECH_MS, s.audioTimeoutMs);
        await this.#sleep(Math.max(s.pauseMs, due - performance.now()));
        if (!more()) break;
        due = performance.now() + (s.turnEveryMs ?? 0);
        const endedAt = await this.#speak();
        const heard = await this.#audibleAfter(endedAt, s.audioTimeoutMs);
        const t = { turn, latencyMs: heard === null ? null : heard - endedAt };
        turns.push(t);
        s.onTurn?.(t);
        if (heard === null) fail('turn', `no reply within ${s.audioTimeoutMs} ms of the end of turn ${turn}`);
      }
      await this.#sleep(s.holdMs);
      if (this.signal.aborted) fail('close', 'the iteration was interrupted');
      return this.#result(r, turns, error);
    } finally {
      await this.#hangUp();
    }
  }

  /** Sends the offer and waits for its answer: ms from the start of the call, or why there is none. */
  async #offer(): Promise<number | string> {
    const pc = this.#pc;
    const sig = this.#signaling as Signaling;
    pc.onIceCandidate.subscribe((c) => {
      const data = c ? c.toJSON() : { candidate: '', sdpMid: null, sdpMLineIndex: null };
      if (this.#answered) this.#trickle(data);
      else this.#early.push(data);
    });
    const receive = (rtp: RtpPacket) =>
      this.#inbound.receive({ sequenceNumber: rtp.header.sequenceNumber, timestamp: rtp.header.timestamp, payload: rtp.payload }, performance.now());
    for (const track of this.#transceiver.receiver.tracks) track.onReceiveRtp.subscribe(receive);
    this.#transceiver.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(receive));
    const offer = await pc.createOffer();
    // werift falls back to a public STUN server when none is configured: a caller must not reach off the machine unasked.
    const stun = (this.spec.iceServers ?? []).some((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]).some((u) => /^stuns?:/i.test(String(u))));
    if (!stun) for (const t of pc.iceTransports) t.connection.stunServer = undefined;
    await pc.setLocalDescription(offer);
    sig.send({ ...this.spec.offer, type: 'offer', sessionId: '', data: { type: 'offer', sdp: offer.sdp } });
    const reply = await sig.take((m) => m.type === 'answer' || m.type === 'error', this.spec.connectTimeoutMs, this.signal);
    if (!reply) return `no answer within ${this.spec.connectTimeoutMs} ms`;
    if (reply.type === 'error') return `the gateway answered error ${describe(reply)}`;
    const at = this.#since();
    this.#sessionId = typeof reply.sessionId === 'string' ? reply.sessionId : '';
    const sdp = (reply.data as { sdp?: unknown } | undefined)?.sdp;
    if (typeof sdp !== 'string') return 'the answer carried no SDP';
    await pc.setRemoteDescription({ type: 'answer', sdp });
    this.#answered = true;
    for (const c of this.#early.splice(0)) this.#trickle(c);
    void this.#applyCandidates();
    return at;
  }

  #trickle(data: Record<string, unknown>): void {
    this.#signaling?.send({ type: 'ice-candidate', sessionId: this.#sessionId, data });
  }

  /** Applies the gateway's trickled candidates as they come, until the call ends. */
  async #applyCandidates(): Promise<void> {
    const sig = this.#signaling as Signaling;
    while (!this.#closed && sig.open) {
      const m = await sig.take((x) => x.type === 'ice-candidate', this.spec.connectTimeoutMs, this.signal);
      if (!m) {
        if (this.#pc.connectionState === 'connected' || this.signal.aborted) return;
        continue;
      }
      const d = m.data as { candidate?: unknown; sdpMid?: unknown; sdpMLineIndex?: unknown } | undefined;
      if (typeof d?.candidate !== 'string' || d.candidate === '') continue;
      await this.#pc
        .addIceCandidate({
          candidate: d.candidate,
          sdpMid: typeof d.sdpMid === 'string' ? d.sdpMid : undefined,
          sdpMLineIndex: typeof d.sdpMLineIndex === 'number' ? d.sdpMLineIndex : undefined,
        })
        .catch(() => {});
    }
  }

  async #connected(timeoutMs: number): Promise<boolean> {
    if (this.#pc.connectionState === 'connected') return true;
    return this.#pc.connectionStateChange
      .watch((s) => s === 'connected', timeoutMs)
      .then(() => true)
      .catch(() => false);
  }

  /** One 20 ms frame on the pacer's tick: the utterance while speaking, silence otherwise. */
  #sendFrame(): void {
    if (this.#closed) return;
    const u = this.voice.utterance;
    let payload = this.voice.silence;
    if (this.#speaking >= 0) {
      payload = u[this.#speaking] as Buffer;
      this.#speaking++;
      if (this.#speaking >= u.length) {
        this.#speaking = -1;
        this.#utteranceEnd?.();
      }
    }
    this.#seq = (this.#seq + 1) & 0xffff;
    this.#ts = (this.#ts + FRAME_SAMPLES) >>> 0;
    this.#sent++;
    this.#transceiver.sender
      .sendRtp(new RtpPacket(new RtpHeader({ payloadType: 96, sequenceNumber: this.#seq, timestamp: this.#ts }), payload))
      .catch(() => {});
  }

  /** Speaks the utterance once; resolves with the time its last frame was sent (the end of the caller's speech). */
  #speak(): Promise<number> {
    return new Promise((resolve) => {
      this.#utteranceEnd = () => {
        this.#utteranceEnd = undefined;
        resolve(performance.now());
      };
      this.#speaking = 0;
    });
  }

  #level(dbfs: number, at: number): void {
    if (dbfs < AUDIBLE_DBFS) return;
    if (this.#firstAudibleAt < 0) this.#firstAudibleAt = at;
    // Only the onset of speech answers a wait: audio that runs on across a turn's end (a reply that came late) is not
    // the reply to the turn, which starts after a silence.
    const onset = this.#lastAudibleAt < 0 || at - this.#lastAudibleAt >= ONSET_GAP_MS;
    this.#lastAudibleAt = at;
    if (onset) for (const [w, from] of [...this.#watchers]) if (at > from) w(at);
  }

  /** Waits for the first onset of agent audio that arrives after `from` (a performance.now() time); its arrival, or null at the timeout. */
  #audibleAfter(from: number, timeoutMs: number): Promise<number | null> {
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (at: number | null) => {
        clearTimeout(timer);
        this.#watchers.delete(done);
        this.signal.removeEventListener('abort', stop);
        resolve(at);
      };
      const stop = () => done(null);
      const timer = setTimeout(stop, Math.max(0, from + timeoutMs - performance.now()));
      this.signal.addEventListener('abort', stop, { once: true });
      this.#watchers.set(done, from);
    });
  }

  /** Waits for the agent's first audio (the greeting), which may have begun before the caller saw the call connected. */
  async #greeting(timeoutMs: number): Promise<boolean> {
    if (this.#firstAudibleAt >= 0) return true;
    return (await this.#audibleAfter(this.#t0, timeoutMs)) !== null;
  }

  /** Waits until no audible frame arrived for `ms` (the agent stopped talking), or `timeoutMs`. */
  async #quietFor(ms: number, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const since = performance.now() - this.#lastAudibleAt;
      if (since >= ms || performance.now() >= deadline || this.signal.aborted) return;
      await this.#sleep(ms - since);
    }
  }

  #sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }

  #result(
    r: Pick<CallResult, 'offerToAnswerMs' | 'timeToConnectedMs' | 'timeToFirstAgentAudioMs'>,
    turns: TurnResult[],
    error: CallResult['error'],
  ): CallResult {
    const f = this.#inbound.figures();
    const loss = f.packetsExpected > 0 ? f.packetsLost / f.packetsExpected : 0;
    const rtt = (this.#transceiver.sender as unknown as { rtt?: number }).rtt;
    const rttMs = typeof rtt === 'number' && Number.isFinite(rtt) ? Math.max(0, rtt * 1000) : null;
    const played = f.decodedFrames + f.concealedFrames;
    const rf = rFactor({ delayMs: mouthToEarMs({ rttMs, jitterMs: f.jitterMs, frameMs: FRAME_MS }), loss });
    return {
      ok: error === null,
      error,
      ...r,
      turns,
      packetsSent: this.#sent,
      packetsReceived: f.packetsReceived,
      packetsLost: f.packetsLost,
      loss,
      jitterMs: f.jitterMs,
      rttMs,
      concealedShare: played > 0 ? f.concealedFrames / played : 0,
      rFactor: rf,
      mos: mosOf(rf),
      durationMs: this.#since(),
    };
  }

  async #hangUp(): Promise<void> {
    this.#stopSending?.();
    if (this.#signaling?.open && this.#sessionId) this.#signaling.send({ type: 'close', sessionId: this.#sessionId });
    this.#closed = true;
    for (const w of [...this.#watchers.keys()]) w(null);
    await this.#pc.close().catch(() => {});
    this.#signaling?.close();
  }
}

/** The STUN URLs of an ICE server list, TURN left out. */
function stunOnly(servers: readonly RTCIceServer[]): RTCIceServer[] {
  return servers.flatMap((s) => {
    const urls = (Array.isArray(s.urls) ? s.urls : [s.urls]).filter((u) => /^stuns?:/i.test(String(u)));
    return urls.length > 0 ? [{ ...s, urls: urls.length === 1 ? (urls[0] as string) : urls }] : [];
  });
}

/** An error message's fields worth a line: its code and message as the gateway sent them. */
function describe(m: Message): string {
  const d = (m.data ?? m) as { code?: unknown; message?: unknown };
  return (
    [d.code, d.message]
      .filter((x) => x !== undefined)
      .map(String)
      .join(': ') || JSON.stringify(m).slice(0, 200)
  );
}

/**
 * Places one call and runs it to its end; never throws for what the gateway did (a failure is in the result, with the
 * step it failed in).
 */
export function placeCall(spec: CallSpec, parts: { tls: SocketTls; voice: Voice; pacer: Pacer; signal: AbortSignal }): Promise<CallResult> {
  return new Call(spec, parts.tls, parts.voice, parts.pacer, parts.signal).run();
}
