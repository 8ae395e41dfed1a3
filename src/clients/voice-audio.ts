/** Sample rate and channels of the voice leg (document 1: Opus, 48 kHz, stereo); 20 ms frames. */
export const RATE = 48_000;
export const CHANNELS = 2;
export const FRAME_SAMPLES = 960;

/**
 * A continuous sine as 20 ms frames of interleaved 16-bit stereo PCM; the phase carries over between frames, so the
 * frames join without clicks. Frequency 0 gives digital silence.
 *
 * @example
 * const tone = new ToneGenerator(660, 0.25);
 * tone.next().length // 1920 (960 samples x 2 channels)
 */
export class ToneGenerator {
  #phase = 0;
  constructor(
    readonly hz: number,
    readonly amplitude: number,
  ) {}

  next(): Int16Array {
    const frame = new Int16Array(FRAME_SAMPLES * CHANNELS);
    if (this.hz <= 0 || this.amplitude <= 0) return frame;
    const step = (2 * Math.PI * this.hz) / RATE;
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const v = Math.round(32767 * this.amplitude * Math.sin(this.#phase));
      this.#phase += step;
      for (let c = 0; c < CHANNELS; c++) frame[i * CHANNELS + c] = v;
    }
    this.#phase %= 2 * Math.PI;
    return frame;
  }
}

/** Averages interleaved 16-bit stereo into mono floats in [-1, 1). */
export function toMono(pcm: Int16Array): Float32Array {
  const out = new Float32Array(Math.floor(pcm.length / CHANNELS));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let c = 0; c < CHANNELS; c++) sum += pcm[i * CHANNELS + c] ?? 0;
    out[i] = sum / CHANNELS / 32768;
  }
  return out;
}

/**
 * RMS level in dBFS (0 is a full-scale square wave; a full-scale sine is about -3; digital silence is -Infinity).
 *
 * @example
 * levelDbfs(new Float32Array(480)) // -Infinity
 */
export function levelDbfs(samples: Float32Array): number {
  if (samples.length === 0) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const v of samples) sum += v * v;
  const rms = Math.sqrt(sum / samples.length);
  return rms === 0 ? Number.NEGATIVE_INFINITY : 20 * Math.log10(rms);
}

/**
 * The share of a signal's power at one frequency (Goertzel), between 0 and about 1. A pure tone at `hz` gives close to 1
 * when the window holds a whole number of its cycles; noise or another tone gives close to 0.
 */
export function toneShare(samples: Float32Array, hz: number, rate = RATE): number {
  const n = samples.length;
  if (n === 0) return 0;
  const coeff = 2 * Math.cos((2 * Math.PI * hz) / rate);
  let s1 = 0;
  let s2 = 0;
  let energy = 0;
  for (const x of samples) {
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
    energy += x * x;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return energy === 0 ? 0 : (2 * power) / (n * energy);
}

/** The strongest frequency of a window, scanned in `stepHz` steps, with its share of the power. */
export interface Dominant {
  readonly hz: number;
  readonly share: number;
}

/**
 * Finds the dominant frequency between `minHz` and `maxHz`.
 *
 * @example
 * const tone = new ToneGenerator(660, 0.5);
 * dominantFrequency(toMono(tone.next())).hz // 660
 */
export function dominantFrequency(samples: Float32Array, options: { minHz?: number; maxHz?: number; stepHz?: number; rate?: number } = {}): Dominant {
  const { minHz = 100, maxHz = 4000, stepHz = 5, rate = RATE } = options;
  let best: Dominant = { hz: 0, share: 0 };
  for (let hz = minHz; hz <= maxHz; hz += stepHz) {
    const share = toneShare(samples, hz, rate);
    if (share > best.share) best = { hz, share };
  }
  return best;
}
