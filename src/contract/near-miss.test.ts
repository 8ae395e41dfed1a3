import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fits, isNearMiss, nearMisses } from './near-miss.js';
import { IceCandidateMessage } from './voice/shapes.js';

describe('near misses of documented field names', () => {
  it('takes another case, other separators or one letter off for the documented name', () => {
    expect(isNearMiss('sdpMlineIndex', 'sdpMLineIndex')).toBe(true);
    expect(isNearMiss('variantId', 'variant_id')).toBe(true);
    expect(isNearMiss('previous_stat', 'previous_state')).toBe(true);
    expect(isNearMiss('api_erorrs', 'api_errors')).toBe(true);
  });

  it('leaves other documented names and short names one letter apart alone', () => {
    expect(isNearMiss('variant_name', 'variant_id')).toBe(false);
    expect(isNearMiss('sdpMid', 'sdpMLineIndex')).toBe(false);
    expect(isNearMiss('ids', 'id')).toBe(false);
    expect(isNearMiss('sdpMLineIndex', 'sdpMLineIndex')).toBe(false);
  });

  it('finds a misspelt optional field inside a union, where the schema alone passes it', () => {
    const frame = { type: 'ice-candidate', sessionId: 's', data: { candidate: 'c', sdpMid: '0', sdpMlineIndex: 0 } };
    expect(IceCandidateMessage.safeParse(frame).success).toBe(true);
    expect(nearMisses(IceCandidateMessage, frame)).toEqual([{ path: 'data.sdpMlineIndex', sent: 'sdpMlineIndex', documented: 'sdpMLineIndex' }]);
    expect(fits(IceCandidateMessage, frame)).toBe(false);
  });

  it('says nothing of an extra key when the documented one is there too, or of keys the schema does not name', () => {
    const S = z.object({ items: z.array(z.object({ started_at: z.string(), note: z.string().optional() })) });
    expect(nearMisses(S, { items: [{ started_at: 'x', startedAt: 'x', extra: 1 }] })).toEqual([]);
    expect(nearMisses(S, { items: [{ started_at: 'x' }, { started_at: 'x', notes: 'y' }] })).toEqual([]);
    expect(nearMisses(S, { items: [{ started_at: 'x' }, { started_at: 'x', Note: 'y' }] })).toEqual([
      { path: 'items.1.Note', sent: 'Note', documented: 'note' },
    ]);
  });
});
