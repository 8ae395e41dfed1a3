import { describe, expect, it } from 'vitest';
import { isWav, readWavHeader } from '../../contract/audio/shapes.js';
import { encodeWav, WAV_FORMAT } from './wav.js';

describe('the WAV writer', () => {
  it('writes a RIFF/WAVE file with a 16-bit PCM fmt chunk and the samples in the data chunk', () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    const wav = encodeWav(samples);
    expect(isWav(wav)).toBe(true);
    expect(wav.length).toBe(44 + samples.length * 2);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(readWavHeader(wav)).toEqual({ format: 1, channels: 1, sampleRate: WAV_FORMAT.sampleRate, bitsPerSample: 16, dataBytes: 10, dataPresent: 10 });
    expect([0, 1, 2, 3, 4].map((i) => wav.readInt16LE(44 + i * 2))).toEqual([...samples]);
  });

  it('gives byte rate and block align consistent with the format', () => {
    const wav = encodeWav(new Int16Array(8), 16_000, 2);
    expect(wav.readUInt32LE(28)).toBe(16_000 * 2 * 2);
    expect(wav.readUInt16LE(32)).toBe(4);
  });

  it('is read as no WAV when the header is cut or the form type is wrong', () => {
    const wav = encodeWav(new Int16Array(4));
    expect(readWavHeader(wav.subarray(0, 30))).toBeUndefined();
    const other = Buffer.from(wav);
    other.write('AVI ', 8, 'ascii');
    expect(readWavHeader(other)).toBeUndefined();
  });
});
