import { describe, expect, it } from 'vitest';
import { expectedAudio, REDACTION_TABLE } from '../../contract/audio/shapes.js';
import type { TurnData } from './model.js';
import { segmentsOf, synthesize } from './recording.js';

const turn = (o: Partial<TurnData> = {}): TurnData => ({
  userInput: 'I want to book a table',
  userInputDtmf: '',
  userAt: 0,
  bargeIn: false,
  agentResponse: 'Certainly.',
  agentAt: 500,
  latencyMs: 500,
  intents: ['book_table'],
  entities: {},
  isOod: false,
  isSilence: false,
  ...o,
});

const audible = (pcm: Int16Array) => pcm.reduce((n, v) => n + (v === 0 ? 0 : 1), 0);

describe('the redaction table', () => {
  it('gives the raw recording only to a caller with PII access who does not ask for redaction', () => {
    for (const row of REDACTION_TABLE) expect(expectedAudio(row.piiAccess, row.redacted)).toBe(row.returns);
    expect(expectedAudio(true, undefined)).toBe('raw');
    expect(expectedAudio(false, undefined)).toBe('redacted');
  });
});

describe('recordings', () => {
  const segments = segmentsOf({ turns: [turn(), turn({ userInput: 'My postcode is SW1A 1AA', entities: { postcode: 'SW1A 1AA' } })] });

  it('open with the caller identification, which holds PII', () => {
    expect(segments[0]).toMatchObject({ side: 'user', pii: true });
    expect(segments.filter((s) => s.pii)).toHaveLength(2);
  });

  it('silence the PII spans when redacted, and nothing else', () => {
    const raw = synthesize(segments, 'combined', 'raw');
    const redacted = synthesize(segments, 'combined', 'redacted');
    expect(redacted.length).toBe(raw.length);
    expect(audible(redacted)).toBeLessThan(audible(raw));
    for (let i = 0; i < raw.length; i++) if (redacted[i] !== 0) expect(redacted[i]).toBe(raw[i]);
  });

  it('keep one side per direction, at the same length', () => {
    const combined = synthesize(segments, 'combined', 'raw');
    const user = synthesize(segments, 'user', 'raw');
    const agent = synthesize(segments, 'agent', 'raw');
    expect(user.length).toBe(combined.length);
    expect(agent.length).toBe(combined.length);
    expect(audible(user) + audible(agent)).toBe(audible(combined));
    expect(audible(user)).toBeGreaterThan(0);
    expect(audible(agent)).toBeGreaterThan(0);
  });
});
