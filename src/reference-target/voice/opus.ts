import { Decoder, Encoder } from '@evan/opus';
import { VoiceAudio, VoiceFrame } from '../../contract/voice/shapes.js';
import { type Syllable, synthesize, toFrames } from './audio.js';

/** A new Opus decoder for the documented format (48 kHz, stereo). */
export function opusDecoder(): Decoder {
  return new Decoder({ channels: VoiceAudio.channels, sample_rate: VoiceAudio.clockRate });
}

/** Decodes one Opus packet to interleaved 16-bit PCM. */
export function decodeOpus(decoder: Decoder, packet: Uint8Array): Int16Array {
  const bytes = decoder.decode(packet);
  // The binding hands back bytes; copy them into an aligned buffer before viewing them as samples.
  return new Int16Array(bytes.slice().buffer, 0, bytes.length >> 1);
}

/** Encodes PCM as consecutive 20 ms Opus packets with one encoder, so the frames play back as one stream. */
export function encodeOpus(pcm: Int16Array): Buffer[] {
  const encoder = new Encoder({ channels: VoiceAudio.channels, sample_rate: VoiceAudio.clockRate, application: 'audio' });
  return toFrames(pcm).map((frame) => Buffer.from(encoder.encode(frame)));
}

/** What one agent voice says, encoded once and shared by every call. */
export interface VoiceClips {
  readonly greeting: readonly Buffer[];
  readonly reply: readonly Buffer[];
  /** One packet of digital silence, sent between utterances so the stream never pauses. */
  readonly silence: Buffer;
}

/** A voice: the syllables of its greeting and of its reply to each caller turn. */
export interface VoiceScript {
  readonly greeting: readonly Syllable[];
  readonly reply: readonly Syllable[];
}

const AMPLITUDE = 0.3;
const GAP_MS = 60;

/** Encodes a voice script into shared clips. Takes a few milliseconds; done once, at warm-up. */
export function encodeClips(script: VoiceScript): VoiceClips {
  const silence = encodeOpus(new Int16Array(VoiceFrame.samples * VoiceAudio.channels * 3));
  return {
    greeting: encodeOpus(synthesize(script.greeting, { amplitude: AMPLITUDE, gapMs: GAP_MS })),
    reply: encodeOpus(synthesize(script.reply, { amplitude: AMPLITUDE, gapMs: GAP_MS })),
    // The encoder's first packets carry start-up state; a later one is the steady-state silence packet.
    silence: silence.at(-1) as Buffer,
  };
}
