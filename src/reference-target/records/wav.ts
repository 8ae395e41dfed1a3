/** The PCM format the reference target records in: 8 kHz, 16-bit, mono (telephone quality). */
export const WAV_FORMAT = { sampleRate: 8_000, channels: 1, bitsPerSample: 16 } as const;

/**
 * Writes 16-bit linear PCM samples as a WAV file: a RIFF header, a 16-byte `fmt ` chunk and a
 * `data` chunk, which every player reads.
 *
 * @example
 * const wav = encodeWav(new Int16Array(8000)); // one second of silence, 16 044 bytes
 */
export function encodeWav(samples: Int16Array, sampleRate: number = WAV_FORMAT.sampleRate, channels: number = WAV_FORMAT.channels): Buffer {
  const bytesPerSample = 2;
  const dataBytes = samples.length * bytesPerSample;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // linear PCM
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * channels * bytesPerSample, 28);
  out.writeUInt16LE(channels * bytesPerSample, 32);
  out.writeUInt16LE(bytesPerSample * 8, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i] as number, 44 + i * bytesPerSample);
  return out;
}
