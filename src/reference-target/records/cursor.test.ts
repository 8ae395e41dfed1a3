import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, filterFingerprint } from './cursor.js';

describe('the keyset cursor codec', () => {
  const key = { startedAt: 1_788_536_677_271, id: 'conv-45c9a42b90ed3f28206a', filters: 'L2qb--jFLNi5' };

  it('decodes what it encodes', () => {
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  it('refuses garbage, a cut cursor and an edited one as malformed', () => {
    const good = encodeCursor(key);
    expect(decodeCursor('not-a-cursor!')).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
    expect(decodeCursor(good.slice(0, -3))).toBeUndefined();
    const [v, body, check] = good.split('.') as [string, string, string];
    const edited = Buffer.from(JSON.stringify([key.startedAt + 1, key.id, key.filters])).toString('base64url');
    expect(decodeCursor(`${v}.${edited}.${check}`)).toBeUndefined();
    expect(decodeCursor(`c2.${body}.${check}`)).toBeUndefined();
  });

  it('refuses a well-signed cursor whose contents have the wrong types', () => {
    const body = Buffer.from(JSON.stringify(['soon', 1, null])).toString('base64url');
    const forged = encodeCursor(key).replace(/^c1\.[^.]+\./, `c1.${body}.`);
    expect(decodeCursor(forged)).toBeUndefined();
  });

  it('fingerprints filters regardless of key and channel order, and ignores unset ones', () => {
    const a = filterFingerprint({ client_env: 'live', channel: ['CHAT', 'SMS'], variant_id: undefined });
    const b = filterFingerprint({ channel: ['SMS', 'CHAT'], client_env: 'live' });
    expect(a).toBe(b);
    expect(filterFingerprint({ client_env: 'sandbox', channel: ['CHAT', 'SMS'] })).not.toBe(a);
  });
});
