// The caller's voice: the utterance dialtone ships (scripts/make-utterance.ts writes it) and one frame of silence, both
// Opus packets made once per engine thread, so no call encodes anything at run time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Encoder } from '@evan/opus';
import { ROOT } from '../../../root.js';

/** 48 kHz, stereo, 20 ms: what the gateway's answer negotiates (opus/48000/2). */
export const RATE = 48_000;
export const CHANNELS = 2;
export const FRAME_SAMPLES = 960;
export const FRAME_MS = 20;

/** The shipped utterance's file. */
export const UTTERANCE_FILE = join(ROOT, 'src/engine/modules/voice/utterance.opus');

/** The packets of a file of 2-byte big-endian lengths, each followed by that many bytes. */
export function readFrames(bytes: Uint8Array): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at + 2 <= bytes.length; ) {
    const len = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
    if (at + 2 + len > bytes.length) throw new Error(`the utterance file is cut short at byte ${at}`);
    frames.push(Buffer.from(bytes.subarray(at + 2, at + 2 + len)));
    at += 2 + len;
  }
  return frames;
}

/** The caller's voice, read once per thread. */
export interface Voice {
  readonly utterance: readonly Buffer[];
  readonly silence: Buffer;
}

let voice: Voice | undefined;

/** The shipped utterance and a silent frame, read and encoded at first use. */
export function callerVoice(): Voice {
  if (voice) return voice;
  const encoder = new Encoder({ channels: CHANNELS, sample_rate: RATE, application: 'voip' });
  const silence = Buffer.from(encoder.encode(new Int16Array(FRAME_SAMPLES * CHANNELS)));
  voice = { utterance: readFrames(readFileSync(UTTERANCE_FILE)), silence };
  return voice;
}
