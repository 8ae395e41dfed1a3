import { describe, expect, it } from 'vitest';
import { owns, parseSegment, shareOf, within } from './segments.js';

describe('execution segments', () => {
  it('splits a VU count so the parts add up to it exactly', () => {
    for (const total of [0, 1, 7, 10, 301])
      for (const count of [1, 2, 3, 8])
        expect(Array.from({ length: count }, (_, index) => shareOf({ index, count }, total)).reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('gives every arrival to exactly one part, also for a worker within a machine segment', () => {
    const parts = [0, 1].flatMap((seg) => [0, 1, 2].map((w) => within({ index: seg, count: 2 }, { index: w, count: 3 })));
    for (let i = 0; i < 60; i++) expect(parts.filter((p) => owns(p, i))).toHaveLength(1);
  });

  it('reads k6 segment flags of equal parts and refuses unequal ones with the reason', () => {
    expect(parseSegment('1/3:2/3', '0,1/3,2/3,1')).toEqual({ index: 1, count: 3 });
    expect(parseSegment(undefined, undefined)).toEqual({ index: 0, count: 1 });
    expect(() => parseSegment('0:1/3', '0,1/3,1')).toThrow(/equal segments only/);
    expect(() => parseSegment('1/2:1/4', undefined)).toThrow(/A:B/);
  });
});
