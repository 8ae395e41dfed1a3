import { describe, expect, it } from 'vitest';
import { NATIVE_SCHEMA, NativeHistogramSink, nativeBucket, ZERO_THRESHOLD } from './native-histogram.js';

describe('a trend as a native histogram', () => {
  it('puts a value in the bucket whose upper bound is the next power of 2^(1/128) at or above it', () => {
    expect(NATIVE_SCHEMA).toBe(7);
    expect(nativeBucket(1)).toBe(0);
    expect(nativeBucket(1.003)).toBe(1);
    expect(nativeBucket(2)).toBe(128);
    expect(nativeBucket(0.5)).toBe(-128);
  });

  it('sends runs of adjacent buckets as spans, each count as a delta from the one before, and zeros apart', () => {
    const h = new NativeHistogramSink();
    for (const v of [1, 1, 1.003, 2, 0]) h.add(v);
    expect(h.toProto(7)).toEqual({
      count: 5,
      sum: 5.003,
      schema: 7,
      zeroThreshold: ZERO_THRESHOLD,
      zeroCount: 1,
      positiveSpans: [
        { offset: 0, length: 2 },
        { offset: 126, length: 1 },
      ],
      positiveDeltas: [2, -1, 0],
      timestamp: 7,
    });
  });
});
