import { describe, expect, it } from 'vitest';
import { CHANNELS, dominantFrequency, FRAME_SAMPLES, levelDbfs, ToneGenerator, toMono, toneShare } from './voice-audio.js';

/** `n` frames of a tone, as one mono window. */
function window(hz: number, frames: number, amplitude = 0.25): Float32Array {
  const tone = new ToneGenerator(hz, amplitude);
  const out = new Float32Array(frames * FRAME_SAMPLES);
  for (let f = 0; f < frames; f++) out.set(toMono(tone.next()), f * FRAME_SAMPLES);
  return out;
}

describe('ToneGenerator', () => {
  it('makes 20 ms frames of interleaved stereo with both channels equal', () => {
    const frame = new ToneGenerator(440, 0.5).next();
    expect(frame.length).toBe(FRAME_SAMPLES * CHANNELS);
    expect(frame[200]).toBe(frame[201]);
  });

  it('carries the phase over so consecutive frames join without a jump', () => {
    const tone = new ToneGenerator(660, 0.5);
    const a = tone.next();
    const b = tone.next();
    const last = a[a.length - 2] as number;
    const first = b[0] as number;
    // One sample step of a 660 Hz sine at amplitude 0.5 moves at most 2*pi*660/48000*16384, about 1416.
    expect(Math.abs(first - last)).toBeLessThan(1500);
  });

  it('gives digital silence at 0 Hz', () => {
    expect(levelDbfs(toMono(new ToneGenerator(0, 0.5).next()))).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('levelDbfs', () => {
  it('puts a sine of amplitude 0.5 at about -9 dBFS (RMS 0.354)', () => {
    expect(levelDbfs(window(1000, 5, 0.5))).toBeCloseTo(-9.03, 1);
  });
});

describe('toneShare', () => {
  it('is close to 1 for the tone itself and close to 0 for another tone', () => {
    const w = window(660, 10);
    expect(toneShare(w, 660)).toBeGreaterThan(0.95);
    expect(toneShare(w, 440)).toBeLessThan(0.01);
  });

  it('is 0 for silence', () => {
    expect(toneShare(new Float32Array(960), 660)).toBe(0);
  });
});

describe('dominantFrequency', () => {
  it('finds the frequency of a tone', () => {
    expect(dominantFrequency(window(660, 10)).hz).toBe(660);
    expect(dominantFrequency(window(330, 10)).hz).toBe(330);
  });

  it('finds the louder of two tones', () => {
    const loud = window(880, 10, 0.3);
    const mix = window(440, 10, 0.1).map((v, i) => v + (loud[i] as number));
    expect(dominantFrequency(mix).hz).toBe(880);
  });

  it('reports a low share for noise', () => {
    let seed = 7;
    const noise = new Float32Array(9600).map(() => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32 - 0.5;
    });
    expect(dominantFrequency(noise).share).toBeLessThan(0.05);
  });
});
