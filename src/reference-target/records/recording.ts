import type { AudioDirection, AudioVariant } from '../../contract/audio/shapes.js';
import type { RecordData } from './model.js';
import { WAV_FORMAT } from './wav.js';

/** One stretch of a recording: who speaks, at which pitch (two for a DTMF pair), and whether it holds PII. */
export interface Segment {
  readonly side: 'user' | 'agent' | 'gap';
  readonly tones: readonly number[];
  readonly ms: number;
  readonly pii: boolean;
}

const TURNS_RECORDED = 8;
const SPEECH_MS = 250;
const GAP: Segment = { side: 'gap', tones: [], ms: 50, pii: false };
/** The caller identification that opens every recording: the caller keys their number (a DTMF pair), which is PII. */
const CALLER_ID: Segment = { side: 'user', tones: [697, 1209], ms: 300, pii: true };

/**
 * The timeline of a record's recording: the caller identification, then each turn's caller and
 * agent speech as tones (a silent caller turn stays silent). A caller turn with entities holds PII.
 *
 * @example
 * segmentsOf(record)[0]; // { side: 'user', tones: [697, 1209], ms: 300, pii: true }
 */
export function segmentsOf(record: Pick<RecordData, 'turns'>): Segment[] {
  const out: Segment[] = [CALLER_ID, GAP];
  for (const t of record.turns.slice(0, TURNS_RECORDED)) {
    const pitch = 300 + (t.userInput.length % 7) * 35;
    out.push({ side: 'user', tones: t.isSilence ? [] : [pitch], ms: SPEECH_MS, pii: Object.keys(t.entities).length > 0 }, GAP);
    out.push({ side: 'agent', tones: [520], ms: SPEECH_MS, pii: false }, GAP);
  }
  return out;
}

/** Which sides a direction keeps. */
const KEEPS: Record<AudioDirection, (side: Segment['side']) => boolean> = {
  combined: (side) => side !== 'gap',
  user: (side) => side === 'user',
  agent: (side) => side === 'agent',
};

/**
 * Synthesises a recording as 16-bit PCM at 8 kHz: the sides a direction keeps sound, the others
 * are silent so every direction has the same length; a redacted recording has its PII spans
 * replaced by silence.
 *
 * @example
 * const pcm = synthesize(segmentsOf(record), 'combined', 'redacted');
 */
export function synthesize(segments: readonly Segment[], direction: AudioDirection, variant: AudioVariant): Int16Array {
  const rate = WAV_FORMAT.sampleRate;
  const total = segments.reduce((n, s) => n + Math.round((s.ms * rate) / 1000), 0);
  const pcm = new Int16Array(total);
  let at = 0;
  for (const s of segments) {
    const n = Math.round((s.ms * rate) / 1000);
    const audible = KEEPS[direction](s.side) && !(variant === 'redacted' && s.pii) && s.tones.length > 0;
    if (audible) {
      const amplitude = 0.3 / s.tones.length;
      for (let i = 0; i < n; i++) {
        let v = 0;
        for (const hz of s.tones) v += Math.sin((2 * Math.PI * hz * i) / rate);
        pcm[at + i] = Math.round(32767 * amplitude * v);
      }
    }
    at += n;
  }
  return pcm;
}
