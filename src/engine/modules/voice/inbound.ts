// What a caller reads from the gateway's RTP: RFC 3550's interarrival jitter and cumulative loss (A.1, A.8), the
// decoder's concealment of every missing frame, and the level of each decoded frame (speech or silence).

/** The decoder the inbound side needs: Opus, one 20 ms frame at a time. */
export interface FrameDecoder {
  decode(payload: Uint8Array): Uint8Array;
}

/** Decoded audio at or above this level (RMS, dBFS) is the agent speaking; the reference agent's silence is far below. */
export const AUDIBLE_DBFS = -50;
/**
 * An Opus packet this small carries silence (an encoder's silent or DTX frames are 1 to 3 bytes; 20 ms of speech at the
 * lowest voice bit rates is tens): it is played as silence without decoding, which is most of what a listening caller
 * receives and, decoded, the largest single cost of a call.
 */
export const SILENT_PACKET_BYTES = 8;
/** A sequence jump past this many frames is a restart of the stream, not loss to conceal. */
const MAX_CONCEALED_RUN = 50;

/** RMS level of interleaved 16-bit samples, in dBFS. */
export function levelDbfs(pcm: Int16Array): number {
  if (pcm.length === 0) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) {
    const v = pcm[i] as number;
    sum += v * v;
  }
  const rms = Math.sqrt(sum / pcm.length) / 32768;
  return rms === 0 ? Number.NEGATIVE_INFINITY : 20 * Math.log10(rms);
}

/** A received packet, as the caller needs it. */
export interface InboundPacket {
  readonly sequenceNumber: number;
  readonly timestamp: number;
  readonly payload: Uint8Array;
}

/** The figures of one call's inbound audio. */
export interface InboundFigures {
  readonly packetsReceived: number;
  /** Packets the sequence numbers say were sent: highest extended sequence number − first + 1. */
  readonly packetsExpected: number;
  readonly packetsLost: number;
  /** RFC 3550 interarrival jitter, in milliseconds. */
  readonly jitterMs: number;
  /** Frames the decoder concealed (lost or reordered past their turn) against frames it produced. */
  readonly concealedFrames: number;
  readonly decodedFrames: number;
}

/**
 * One call's inbound audio. `receive` takes each packet with its arrival time; every gap in the sequence numbers is
 * concealed by the decoder (an Opus packet of a TOC byte alone carries a zero-length frame, which the decoder
 * conceals), so concealment counts what a listener would have heard filled in.
 */
export class InboundAudio {
  #first = -1;
  #maxExt = -1;
  #received = 0;
  #jitter = 0;
  #lastTransit: number | undefined;
  #concealed = 0;
  #decoded = 0;
  #toc = 0;

  /**
   * @param decoder the call's Opus decoder
   * @param clockRate RTP clock ticks per millisecond
   * @param onLevel told of each decoded frame's level and the packet's arrival
   */
  constructor(
    private readonly decoder: FrameDecoder,
    private readonly clockPerMs: number,
    private readonly onLevel: (dbfs: number, arrivalMs: number) => void,
  ) {}

  receive(p: InboundPacket, arrivalMs: number): void {
    this.#received++;
    this.#jitterOf(p.timestamp, arrivalMs);
    const ext = this.#extend(p.sequenceNumber);
    if (this.#first < 0) {
      this.#first = ext;
      this.#maxExt = ext;
    } else if (ext > this.#maxExt) {
      const gap = ext - this.#maxExt - 1;
      if (gap > 0 && gap <= MAX_CONCEALED_RUN) this.#conceal(gap);
      this.#maxExt = ext;
    } else {
      // Late: its turn was concealed already, so it is not played.
      return;
    }
    const payload = p.payload;
    if (payload.length > 0) this.#toc = (payload[0] as number) & 0xfc;
    if (payload.length <= SILENT_PACKET_BYTES) {
      this.#decoded++;
      this.onLevel(Number.NEGATIVE_INFINITY, arrivalMs);
      return;
    }
    let pcm: Uint8Array;
    try {
      pcm = this.decoder.decode(payload);
    } catch {
      this.#conceal(1);
      return;
    }
    this.#decoded++;
    this.onLevel(levelDbfs(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1)), arrivalMs);
  }

  /** RFC 3550 A.8: J += (|D| − J) / 16, in milliseconds. */
  #jitterOf(timestamp: number, arrivalMs: number): void {
    const transit = arrivalMs - timestamp / this.clockPerMs;
    if (this.#lastTransit !== undefined) {
      let d = Math.abs(transit - this.#lastTransit);
      // A timestamp that wrapped around 2³² reads as a jump of the whole range: take it modulo the range.
      const range = 0x100000000 / this.clockPerMs;
      if (d > range / 2) d = Math.abs(d - range);
      this.#jitter += (d - this.#jitter) / 16;
    }
    this.#lastTransit = transit;
  }

  /** RFC 3550 A.1: the sequence number extended past its wraps, read as the nearest to the highest one seen. */
  #extend(seq: number): number {
    if (this.#first < 0) return seq;
    const delta = ((seq - (this.#maxExt & 0xffff) + 0x8000) & 0xffff) - 0x8000;
    return this.#maxExt + delta;
  }

  #conceal(frames: number): void {
    const plc = new Uint8Array([this.#toc]);
    for (let i = 0; i < frames; i++) {
      try {
        this.decoder.decode(plc);
      } catch {
        // A decoder that cannot conceal still counts the frame as concealed: the listener heard a gap.
      }
      this.#concealed++;
    }
  }

  figures(): InboundFigures {
    const expected = this.#first < 0 ? 0 : this.#maxExt - this.#first + 1;
    return {
      packetsReceived: this.#received,
      packetsExpected: expected,
      packetsLost: Math.max(0, expected - this.#received),
      jitterMs: this.#jitter,
      concealedFrames: this.#concealed,
      decodedFrames: this.#decoded,
    };
  }
}
