import { VoiceAudio, VoiceFrame } from '../../contract/voice/shapes.js';

/** One "syllable" of the reference agent's voice: a tone of a pitch for a duration. */
export interface Syllable {
  readonly hz: number;
  readonly ms: number;
}

const RATE = VoiceAudio.clockRate;
const CHANNELS = VoiceAudio.channels;
/** Rise and fall of each syllable, so the tones start and stop without clicks. */
const RAMP_MS = 15;

/**
 * Renders syllables as interleaved 16-bit stereo PCM at 48 kHz, with `gapMs` of silence after each. A stand-in for
 * text-to-speech: distinct pitches make the agent's audio recognisable and easy to tell from an echo.
 *
 * @example
 * synthesize([{ hz: 440, ms: 200 }], { amplitude: 0.3, gapMs: 80 }).length // (200 + 80) ms * 48 * 2 channels
 */
export function synthesize(syllables: readonly Syllable[], shape: { amplitude: number; gapMs: number }): Int16Array {
  const per = (ms: number) => Math.round((ms * RATE) / 1000);
  const total = syllables.reduce((n, s) => n + per(s.ms) + per(shape.gapMs), 0);
  const out = new Int16Array(total * CHANNELS);
  const ramp = per(RAMP_MS);
  let at = 0;
  for (const s of syllables) {
    const n = per(s.ms);
    for (let i = 0; i < n; i++) {
      const envelope = Math.min(1, i / ramp, (n - 1 - i) / ramp);
      const v = Math.round(32767 * shape.amplitude * envelope * Math.sin((2 * Math.PI * s.hz * i) / RATE));
      for (let c = 0; c < CHANNELS; c++) out[(at + i) * CHANNELS + c] = v;
    }
    at += n + per(shape.gapMs);
  }
  return out;
}

/** Splits interleaved PCM into 20 ms frames, padding the last one with silence. */
export function toFrames(pcm: Int16Array): Int16Array[] {
  const size = VoiceFrame.samples * CHANNELS;
  const frames: Int16Array[] = [];
  for (let at = 0; at < pcm.length; at += size) {
    const frame = new Int16Array(size);
    frame.set(pcm.subarray(at, Math.min(at + size, pcm.length)));
    frames.push(frame);
  }
  return frames;
}

/**
 * Level of 16-bit PCM in dBFS (0 is full scale; digital silence is -Infinity).
 *
 * @example
 * levelDbfs(new Int16Array(960)) // -Infinity
 */
export function levelDbfs(pcm: Int16Array): number {
  if (pcm.length === 0) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const v of pcm) sum += v * v;
  const rms = Math.sqrt(sum / pcm.length) / 32768;
  return rms === 0 ? Number.NEGATIVE_INFINITY : 20 * Math.log10(rms);
}
