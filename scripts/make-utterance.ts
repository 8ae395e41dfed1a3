// Writes the caller's utterance of the voice-calls scenario, src/engine/modules/voice/utterance.opus: three voiced
// syllables (a gliding 120–160 Hz fundamental with ten harmonics, each syllable faded in and out) with short pauses,
// about a second, encoded once as 20 ms Opus frames (48 kHz stereo) so that no caller encodes at run time. Each frame
// is stored as a 2-byte big-endian length and its bytes. Deterministic: running it again writes the same file.
//
//   node --import tsx scripts/make-utterance.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Encoder } from '@evan/opus';
import { ROOT } from '../src/root.js';

const RATE = 48_000;
const FRAME = 960;
/** Syllables and pauses in milliseconds; the last syllable runs to the last frame, so the utterance ends in speech. */
const SHAPE = [
  { speak: 260, pause: 90 },
  { speak: 200, pause: 90 },
  { speak: 320, pause: 0 },
];
const PEAK = 0.22;

function synthesize(): Int16Array {
  const total = SHAPE.reduce((n, s) => n + s.speak + s.pause, 0);
  const frames = Math.ceil((total * RATE) / 1000 / FRAME);
  const out = new Int16Array(frames * FRAME * 2);
  let at = 0;
  let phase = 0;
  for (const s of SHAPE) {
    const n = Math.round((s.speak * RATE) / 1000);
    for (let i = 0; i < n; i++) {
      const f0 = 120 + 40 * Math.sin((Math.PI * i) / n);
      phase += (2 * Math.PI * f0) / RATE;
      let v = 0;
      for (let k = 1; k <= 10; k++) v += Math.sin(k * phase) / k;
      // 10 ms fades keep the syllables from clicking.
      const fade = Math.min(1, i / 480, (n - i) / 480);
      const sample = Math.round(PEAK * 32767 * (v / 2) * fade);
      out[2 * (at + i)] = sample;
      out[2 * (at + i) + 1] = sample;
    }
    at += n + Math.round((s.pause * RATE) / 1000);
  }
  // The last syllable ends at the end of the file: trim what is past it.
  return out.subarray(0, Math.ceil(at / FRAME) * FRAME * 2);
}

const pcm = synthesize();
const encoder = new Encoder({ channels: 2, sample_rate: RATE, application: 'voip' });
const parts: Buffer[] = [];
for (let i = 0; i < pcm.length; i += FRAME * 2) {
  const frame = new Int16Array(FRAME * 2);
  frame.set(pcm.subarray(i, i + FRAME * 2));
  const packet = Buffer.from(encoder.encode(frame));
  const len = Buffer.alloc(2);
  len.writeUInt16BE(packet.length);
  parts.push(len, packet);
}
const file = join(ROOT, 'src/engine/modules/voice/utterance.opus');
writeFileSync(file, Buffer.concat(parts));
process.stdout.write(`${file}: ${parts.length / 2} frames\n`);
