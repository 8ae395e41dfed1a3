import { z } from 'zod';
import { QueryBoolean } from '../conversations/shapes.js';
import { defineErrors } from '../rule.js';
import type { AudioRules } from './rules.js';

/** Which channel of the recording to return: both sides (default), the user, or the agent. */
export const AudioDirection = z.enum(['combined', 'user', 'agent']);
export type AudioDirection = z.infer<typeof AudioDirection>;

/** Audio query: `direction` defaults to combined, `redacted` to false. */
export const AudioQuery = z.object({
  direction: AudioDirection.default('combined'),
  redacted: QueryBoolean.default(false),
});
export type AudioQuery = z.infer<typeof AudioQuery>;
/** The audio query as a client writes it (both fields optional). */
export type AudioQueryInput = z.input<typeof AudioQuery>;

/** What a request returns: the raw recording or the redacted one. */
export type AudioVariant = 'raw' | 'redacted';

/** One row of the redaction table, with "false or omitted" expanded into two rows. */
export interface RedactionRow {
  readonly piiAccess: boolean;
  /** `undefined` means the parameter is omitted. */
  readonly redacted: boolean | undefined;
  readonly returns: AudioVariant;
  /** The rule covering the documented row this expands. */
  readonly rule: keyof typeof AudioRules;
}

/** The PII redaction table of the audio endpoint as data: only a user with PII access and no redaction gets raw audio. */
export const REDACTION_TABLE = [
  { piiAccess: true, redacted: false, returns: 'raw', rule: 'audio.redaction.pii-false-raw' },
  { piiAccess: true, redacted: undefined, returns: 'raw', rule: 'audio.redaction.pii-false-raw' },
  { piiAccess: true, redacted: true, returns: 'redacted', rule: 'audio.redaction.pii-true-redacted' },
  { piiAccess: false, redacted: false, returns: 'redacted', rule: 'audio.redaction.no-pii-false-redacted' },
  { piiAccess: false, redacted: undefined, returns: 'redacted', rule: 'audio.redaction.no-pii-false-redacted' },
  { piiAccess: false, redacted: true, returns: 'redacted', rule: 'audio.redaction.no-pii-true-redacted' },
] as const satisfies readonly RedactionRow[];

/**
 * The recording the redaction table prescribes for a caller and a `redacted` value.
 *
 * @example
 * expectedAudio(true, undefined); // 'raw'
 * expectedAudio(false, false); // 'redacted' (enforced)
 */
export function expectedAudio(piiAccess: boolean, redacted: boolean | undefined): AudioVariant {
  const row = REDACTION_TABLE.find((r) => r.piiAccess === piiAccess && r.redacted === redacted);
  return row?.returns ?? 'redacted';
}

/**
 * Whether a body is a WAV file (RIFF header with the WAVE form type).
 *
 * @example
 * isWav(new Uint8Array(await res.arrayBuffer())); // true for a WAV body
 */
export function isWav(bytes: Uint8Array): boolean {
  const ascii = (from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to));
  return bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE';
}

/** The content type the reference target sends with a WAV body; the document shows none. */
export const AUDIO_CONTENT_TYPE = 'audio/wav';

/** Audio credential header, exactly as the Authentication table writes it. */
export const AudioHeaders = {
  apiKey: 'x-api-key',
} as const;

/** What a WAV header says: the format chunk and the size of the data chunk. */
export interface WavHeader {
  /** 1 is linear PCM. */
  readonly format: number;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
  /** Bytes of the data chunk, as its header gives them. */
  readonly dataBytes: number;
  /** Bytes of sample data actually present after the data chunk header. */
  readonly dataPresent: number;
}

/**
 * Reads the RIFF chunks of a WAV body; undefined when it is not a WAV file with a `fmt ` and a `data` chunk.
 * A player needs both, with a consistent block alignment, to play the file.
 *
 * @example
 * readWavHeader(bytes)?.sampleRate; // 8000
 */
export function readWavHeader(bytes: Uint8Array): WavHeader | undefined {
  if (!isWav(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  let fmt: Omit<WavHeader, 'dataBytes' | 'dataPresent'> | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = ascii(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && size >= 16 && at + 24 <= bytes.length) {
      fmt = {
        format: view.getUint16(at + 8, true),
        channels: view.getUint16(at + 10, true),
        sampleRate: view.getUint32(at + 12, true),
        bitsPerSample: view.getUint16(at + 22, true),
      };
    }
    if (id === 'data') {
      return fmt ? { ...fmt, dataBytes: size, dataPresent: Math.max(0, bytes.length - at - 8) } : undefined;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * Audio errors: none is shown in the document (statuses and bodies are open), so every entry is the
 * reference target's choice, in the `{ error_message }` shape of the other document-2 APIs.
 */
export const AudioErrors = defineErrors({
  MISSING_KEY: { status: 401, text: 'Missing API key', documented: false },
  INVALID_KEY: { status: 401, text: 'Invalid API key', documented: false },
  FORBIDDEN: { status: 403, text: 'API key is not authorised for this account and project', documented: false },
  NOT_FOUND: { status: 404, text: 'Account or project not found', documented: false },
  CONVERSATION_NOT_FOUND: { status: 404, text: 'Conversation not found', documented: false },
  INVALID_PARAMETER: { status: 400, text: 'Invalid query parameter', documented: false },
});
