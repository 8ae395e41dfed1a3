import { describe, expect, it } from 'vitest';
import { levelDbfs, synthesize, toFrames } from './audio.js';

describe('synthesize', () => {
  it('renders each syllable and its gap as 48 kHz stereo', () => {
    const pcm = synthesize([{ hz: 440, ms: 100 }], { amplitude: 0.3, gapMs: 20 });
    expect(pcm.length).toBe((100 + 20) * 48 * 2);
    expect(levelDbfs(pcm.subarray(0, 100 * 48 * 2))).toBeGreaterThan(-15);
    expect(levelDbfs(pcm.subarray(100 * 48 * 2))).toBe(Number.NEGATIVE_INFINITY);
  });

  it('starts and ends each syllable at zero, so it does not click', () => {
    const pcm = synthesize([{ hz: 440, ms: 100 }], { amplitude: 0.3, gapMs: 0 });
    expect(pcm[0]).toBe(0);
    expect(Math.abs(pcm[pcm.length - 1] as number)).toBeLessThan(50);
  });
});

describe('toFrames', () => {
  it('cuts 20 ms frames and pads the last with silence', () => {
    const frames = toFrames(new Int16Array(960 * 2 * 2 + 10).fill(1000));
    expect(frames.map((f) => f.length)).toEqual([1920, 1920, 1920]);
    expect(frames[2]?.[10]).toBe(0);
  });
});
