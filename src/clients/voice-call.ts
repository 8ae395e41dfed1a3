import { Decoder, Encoder } from '@evan/opus';
import { type RTCIceServer, RTCPeerConnection, RTCRtpCodecParameters, type RTCRtpTransceiver, RtpHeader, RtpPacket } from 'werift';
import { CHANNELS, FRAME_SAMPLES, levelDbfs, RATE, ToneGenerator, toMono } from './voice-audio.js';
import { type ServerMessage, SIGNAL_TIMEOUT_MS, type SignalingSocket } from './voice-signaling.js';

export { RTCPeerConnection } from 'werift';

/** What the caller sends once connected: a tone, or digital silence (hz 0). */
export interface Source {
  readonly hz: number;
  readonly amplitude: number;
}

/** An offer as a case wants it sent: documented fields by name, anything else through `extra`. */
export interface OfferOptions {
  /** The voice auth token; `null` leaves authToken out of the offer. */
  readonly authToken: string | null;
  /** Leave undefined to send no mode at all. */
  readonly mode?: string;
  readonly callSid?: string;
  readonly caller?: string;
  readonly callee?: string;
  readonly accountId?: string;
  readonly projectId?: string;
  readonly variantId?: string;
  readonly agentVersionOverride?: unknown;
  /** Fields sent as given (a case sending what a client should not). */
  readonly extra?: Record<string, unknown>;
  /** The sessionId of the offer; empty (a new session) unless renegotiating. */
  readonly sessionId?: string;
}

export interface CallOptions {
  readonly offer: OfferOptions;
  readonly source?: Source;
  readonly iceServers?: RTCIceServer[];
  /** Gather only a loopback host candidate (werift leaves loopback out otherwise): for a gateway on this machine. */
  readonly loopback?: boolean;
  /** Decode what comes back (default true); a load run that only counts packets turns it off. */
  readonly decode?: boolean;
}

/** One decoded 20 ms of what the gateway sent. */
interface Chunk {
  /** Its position among every frame this call decoded. */
  readonly n: number;
  readonly at: number;
  readonly samples: Float32Array;
  readonly dbfs: number;
}

/** Milliseconds from the offer being sent to each step of the call. */
export interface CallTimings {
  answer?: number;
  iceConnected?: number;
  dtlsConnected?: number;
  connected?: number;
  firstAudio?: number;
}

/**
 * The longest a case waits for a call to connect. The documents give no time for it; a connect is ICE and DTLS worked
 * out in JavaScript at both ends, which a loaded runner slows (werift sends an unanswered DTLS flight again after 0.5 s,
 * then 1 s, 1.5 s, …: sent five times over for one session with two cores busy), and the gateway's own watchdog gives up at
 * 15 s. It was the 5 s signaling wait.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Decoded audio above this level is sound rather than silence. */
export const AUDIBLE_DBFS = -50;
const FRAME_MS = FRAME_SAMPLES / (RATE / 1000);
/** How much received audio a call keeps for analysis (10 s). */
const KEEP_CHUNKS = 500;

/** A fresh codec list per peer connection: werift assigns payload types into these objects. */
export const codecs = () => ({ audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: RATE, channels: CHANNELS })] });

/**
 * A werift caller, as a browser would be one: a sendrecv audio transceiver, an offer without candidates, candidates
 * trickled once the answer has given the sessionId, a generated tone (or silence) encoded as Opus every 20 ms, and the
 * gateway's audio decoded for analysis.
 */
export class VoiceCall {
  readonly timings: CallTimings = {};
  /** The gateway's answer, or its error, or neither when nothing came in time. */
  answer: ServerMessage | undefined;
  error: ServerMessage | undefined;
  /** The sessionId the answer assigned (an empty string when the answer carried none). */
  sessionId = '';
  /** Index of the answer (or error) among the socket's received frames: what follows came after it. */
  replyIndex = -1;
  offerSdp = '';
  candidatesSent = 0;
  readonly candidatesReceived: ServerMessage[] = [];
  packetsIn = 0;
  packetsOut = 0;
  readonly #chunks: Chunk[] = [];
  readonly #early: Record<string, unknown>[] = [];
  readonly #transceiver: RTCRtpTransceiver;
  readonly #decoder = new Decoder({ channels: CHANNELS, sample_rate: RATE });
  readonly #waiters = new Set<() => void>();
  #decoded = 0;
  #sending: NodeJS.Timeout | undefined;
  #seq = Math.floor(Math.random() * 0x10000);
  #ts = Math.floor(Math.random() * 0x100000000);
  #sentAt = 0;
  #lastPacketAt = 0;
  #closed = false;

  private constructor(
    readonly signaling: SignalingSocket,
    readonly pc: RTCPeerConnection,
    private readonly o: CallOptions,
  ) {
    this.#transceiver = pc.addTransceiver('audio', { direction: 'sendrecv' });
  }

  /**
   * Sends an offer on `signaling` and waits (bounded) for the answer or an error. Never throws for what the gateway
   * answered: the case looks at `answer` and `error`. Once answered, ICE runs on its own.
   */
  static async place(signaling: SignalingSocket, options: CallOptions): Promise<VoiceCall> {
    const pc = new RTCPeerConnection({
      codecs: codecs(),
      iceServers: options.iceServers ?? [],
      iceUseIpv6: false,
      // UDP only: werift's TCP candidates can hold gathering for 5 s, and browsers reach the gateway over UDP.
      iceUseTcp: false,
      // A gateway on this machine is reached on loopback only: one local candidate, no pairs over other interfaces.
      ...(options.loopback ? { iceUseIpv4: false, iceAdditionalHostAddresses: ['127.0.0.1'] } : {}),
    });
    const call = new VoiceCall(signaling, pc, options);
    await call.#offer();
    return call;
  }

  async #offer(): Promise<void> {
    const { pc, signaling } = this;
    pc.onIceCandidate.subscribe((c) => {
      const data = c ? c.toJSON() : { candidate: '', sdpMid: null, sdpMLineIndex: null };
      if (this.answer) this.#sendCandidate(data);
      else this.#early.push(data);
    });
    pc.iceConnectionStateChange.subscribe((s) => {
      if (s === 'connected') this.timings.iceConnected ??= this.#since();
    });
    pc.connectionStateChange.subscribe((s) => {
      if (s === 'connected') this.timings.connected ??= this.#since();
    });
    for (const track of this.#transceiver.receiver.tracks) track.onReceiveRtp.subscribe((rtp) => this.#receive(rtp));
    this.#transceiver.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => this.#receive(rtp)));

    const offer = await pc.createOffer();
    // werift falls back to stun.l.google.com when no STUN server is configured; a caller of a gateway on this machine
    // must not reach off it, and an unanswered STUN query holds gathering for 5 s.
    if (!(this.o.iceServers ?? []).some((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]).some((u) => /^stuns?:/i.test(u)))) {
      for (const transport of pc.iceTransports) transport.connection.stunServer = undefined;
    }
    await pc.setLocalDescription(offer);
    pc.dtlsTransports[0]?.onStateChange.subscribe((s) => {
      if (s === 'connected') this.timings.dtlsConnected ??= this.#since();
    });
    // The SDP as created, before gathering: the gateway learns our candidates from ice-candidate messages only.
    this.offerSdp = offer.sdp;
    const { authToken, extra, sessionId, ...fields } = this.o.offer;
    const from = signaling.frames.length;
    this.#sentAt = performance.now();
    signaling.send({
      type: 'offer',
      sessionId: sessionId ?? '',
      ...(authToken === null ? {} : { authToken }),
      data: { type: 'offer', sdp: offer.sdp },
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
      ...extra,
    });
    let reply: ServerMessage;
    try {
      reply = await signaling.next((m) => m.type === 'answer' || m.type === 'error', 'answer or error to the offer', { after: from });
    } catch {
      return;
    }
    this.replyIndex = signaling.frames.findIndex((f) => f.message === reply);
    if (reply.type === 'error') {
      this.error = reply;
      return;
    }
    this.answer = reply;
    this.timings.answer = this.#since();
    this.sessionId = typeof reply.sessionId === 'string' ? reply.sessionId : '';
    this.#watchCandidates(from);
    const sdp = (reply.data as { sdp?: unknown } | undefined)?.sdp;
    if (typeof sdp !== 'string') return;
    await pc.setRemoteDescription({ type: 'answer', sdp });
    for (const c of this.#early.splice(0)) this.#sendCandidate(c);
  }

  /** Applies the gateway's trickled candidates for this session as they come. */
  #watchCandidates(from: number): void {
    const take = async () => {
      while (!this.#closed && this.signaling.open) {
        const m = await this.signaling
          .next((x) => x.type === 'ice-candidate' && (x.sessionId === this.sessionId || this.sessionId === ''), 'ice-candidate', {
            after: from,
            timeoutMs: 60_000,
          })
          .catch(() => undefined);
        if (!m) return;
        this.candidatesReceived.push(m);
        const d = m.data as { candidate?: unknown; sdpMid?: unknown; sdpMLineIndex?: unknown } | undefined;
        if (typeof d?.candidate !== 'string' || d.candidate === '') continue;
        await this.pc
          .addIceCandidate({
            candidate: d.candidate,
            sdpMid: typeof d.sdpMid === 'string' ? d.sdpMid : undefined,
            sdpMLineIndex: typeof d.sdpMLineIndex === 'number' ? d.sdpMLineIndex : undefined,
          })
          .catch(() => {});
      }
    };
    void take();
  }

  #sendCandidate(data: Record<string, unknown>): void {
    if (this.#closed || !this.signaling.open) return;
    this.candidatesSent++;
    this.signaling.send({ type: 'ice-candidate', sessionId: this.sessionId, data });
  }

  #since(): number {
    return performance.now() - this.#sentAt;
  }

  #receive(rtp: RtpPacket): void {
    this.packetsIn++;
    this.#lastPacketAt = performance.now();
    this.timings.firstAudio ??= this.#since();
    if (this.o.decode === false) return;
    try {
      const bytes = this.#decoder.decode(rtp.payload);
      const samples = toMono(new Int16Array(bytes.slice().buffer, 0, bytes.length >> 1));
      this.#chunks.push({ n: this.#decoded++, at: this.#lastPacketAt, samples, dbfs: levelDbfs(samples) });
      if (this.#chunks.length > KEEP_CHUNKS) this.#chunks.shift();
    } catch {
      // An undecodable packet counts as received but adds no audio.
    }
    for (const wake of [...this.#waiters]) wake();
  }

  /** Resolves at the next packet, or at the deadline. */
  #nextPacket(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
      this.#waiters.add(done);
    });
  }

  /** The answer's SDP, or an empty string. */
  get answerSdp(): string {
    const sdp = (this.answer?.data as { sdp?: unknown } | undefined)?.sdp;
    return typeof sdp === 'string' ? sdp : '';
  }

  /** Waits until the peer connection is connected (ICE and DTLS), keyed on connectionState. */
  async connected(timeoutMs = CONNECT_TIMEOUT_MS): Promise<void> {
    if (this.pc.connectionState === 'connected') return;
    if (!this.answer) throw new Error(`the offer was not answered: ${this.signaling.summary()}`);
    await this.pc.connectionStateChange
      .watch((s) => s === 'connected', timeoutMs)
      .catch(() => {
        throw new Error(
          `not connected within ${timeoutMs} ms (connectionState ${this.pc.connectionState}, ICE ${this.pc.iceConnectionState}); signaling: ` +
            `${this.signaling.summary()}`,
        );
      });
  }

  /** Starts sending the source every 20 ms (Opus, 48 kHz, stereo), paced by this call's own timer. */
  startSending(source: Source = this.o.source ?? { hz: 0, amplitude: 0 }): void {
    this.stopSending();
    const encoder = new Encoder({ channels: CHANNELS, sample_rate: RATE, application: 'audio' });
    const tone = new ToneGenerator(source.hz, source.amplitude);
    const tick = () => this.sendFrame(Buffer.from(encoder.encode(tone.next())));
    this.#sending = setInterval(tick, FRAME_MS);
  }

  /** Sends one 20 ms Opus packet now (for a driver that paces many calls on one timer). */
  sendFrame(payload: Buffer): void {
    if (this.#closed) return;
    this.#seq = (this.#seq + 1) & 0xffff;
    this.#ts = (this.#ts + FRAME_SAMPLES) >>> 0;
    this.packetsOut++;
    void this.#transceiver.sender
      .sendRtp(new RtpPacket(new RtpHeader({ payloadType: 96, sequenceNumber: this.#seq, timestamp: this.#ts }), payload))
      .catch(() => {});
  }

  stopSending(): void {
    clearInterval(this.#sending);
    this.#sending = undefined;
  }

  /**
   * Waits for `ms` of received audio in a row at or above `minDbfs` and returns it as mono samples. Only audio that
   * arrives after the call counts, unless `sinceStart` (then everything kept, up to 10 s, counts too). Rejects after
   * `timeoutMs` with what was received instead.
   */
  async audio(options: { ms: number; minDbfs?: number; timeoutMs?: number; sinceStart?: boolean }): Promise<Float32Array> {
    const min = options.minDbfs ?? AUDIBLE_DBFS;
    return this.#run(options, (dbfs) => dbfs >= min, `audio at or above ${min} dBFS`);
  }

  /** Waits for `ms` of received silence in a row (below -50 dBFS): the gateway has stopped talking. */
  async silence(options: { ms: number; timeoutMs?: number }): Promise<void> {
    await this.#run(options, (dbfs) => dbfs < AUDIBLE_DBFS, `silence below ${AUDIBLE_DBFS} dBFS`);
  }

  async #run(o: { ms: number; timeoutMs?: number; sinceStart?: boolean }, ok: (dbfs: number) => boolean, what: string): Promise<Float32Array> {
    const need = Math.ceil(o.ms / FRAME_MS);
    const timeoutMs = o.timeoutMs ?? SIGNAL_TIMEOUT_MS;
    const deadline = performance.now() + timeoutMs;
    // By default only audio that arrives from now on counts, so a window never mixes in what came before the wait.
    const from = o.sinceStart ? 0 : this.#decoded;
    for (;;) {
      let run = 0;
      const fresh = this.#chunks.filter((c) => c.n >= from);
      for (let i = 0; i < fresh.length; i++) {
        run = ok((fresh[i] as Chunk).dbfs) ? run + 1 : 0;
        if (run >= need) return concat(fresh.slice(i + 1 - need, i + 1));
      }
      if (performance.now() >= deadline) throw new Error(`no ${o.ms} ms of ${what} within ${timeoutMs} ms; ${this.describeInbound()}`);
      await this.#nextPacket(deadline);
    }
  }

  /** Waits until `packets` packets have arrived; rejects after `timeoutMs`. */
  async packets(packets: number, timeoutMs = SIGNAL_TIMEOUT_MS): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    const target = this.packetsIn + packets;
    while (this.packetsIn < target) {
      if (performance.now() >= deadline)
        throw new Error(`only ${this.packetsIn - (target - packets)} of ${packets} packets within ${timeoutMs} ms; ${this.describeInbound()}`);
      await this.#nextPacket(deadline);
    }
  }

  /**
   * Resolves true once no packet has arrived for `gapMs` and none arrives in the `holdMs` after; false when packets
   * still flowed at `timeoutMs`. Each look comes after the packets already waiting on the socket have been read: a
   * timer fires before pending I/O, so on a busy machine a stalled loop would otherwise pass for a quiet gateway.
   */
  async quiet(gapMs: number, timeoutMs = SIGNAL_TIMEOUT_MS, holdMs = 0): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    const afterIo = () => new Promise((r) => setImmediate(r));
    for (;;) {
      await afterIo();
      const since = performance.now() - this.#lastPacketAt;
      if (since >= gapMs) {
        const seen = this.packetsIn;
        await new Promise((r) => setTimeout(r, holdMs));
        await afterIo();
        if (this.packetsIn === seen) return true;
        continue;
      }
      if (performance.now() + (gapMs - since) > deadline) return false;
      await new Promise((r) => setTimeout(r, gapMs - since));
    }
  }

  /** Packets in, the level and the dominant band of the last 200 ms: for failure messages. */
  describeInbound(): string {
    const last = this.#chunks.slice(-10);
    const level = last.length ? Math.max(...last.map((c) => c.dbfs)).toFixed(1) : 'n/a';
    return `${this.packetsIn} packets received, loudest of the last ${last.length} frames ${level} dBFS`;
  }

  /** Sends close for the session. */
  hangUp(): void {
    if (this.signaling.open) this.signaling.send({ type: 'close', sessionId: this.sessionId });
  }

  /** Stops sending and closes the peer connection (the signaling socket belongs to whoever opened it). */
  async dispose(): Promise<void> {
    this.#closed = true;
    this.stopSending();
    await this.pc.close().catch(() => {});
  }
}

function concat(chunks: Chunk[]): Float32Array {
  const out = new Float32Array(chunks.reduce((n, c) => n + c.samples.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c.samples, at);
    at += c.samples.length;
  }
  return out;
}
