import { describe, expect, it } from 'vitest';
import { concurrencyWindows } from '../../contract/concurrency/shapes.js';
import { peaks } from './peaks.js';

const MIN = 60_000;

describe('peak concurrency per 5-minute window', () => {
  it('counts the most conversations active at one instant of each window', () => {
    const active = [
      { start: 0, end: 7 * MIN },
      { start: 2 * MIN, end: 3 * MIN },
      { start: 2.5 * MIN, end: 6 * MIN },
    ];
    expect(peaks(active, 0, 10 * MIN)).toEqual([3, 2]);
  });

  it('does not count back-to-back conversations as overlapping, nor one that ended as the window opened', () => {
    const active = [
      { start: 0, end: 5 * MIN },
      { start: 5 * MIN, end: 6 * MIN },
      { start: 6 * MIN, end: 7 * MIN },
    ];
    expect(peaks(active, 0, 10 * MIN)).toEqual([1, 1]);
  });

  it('carries a conversation that started before the range into its first windows', () => {
    expect(peaks([{ start: -20 * MIN, end: 7 * MIN }], 0, 15 * MIN)).toEqual([1, 1, 0]);
  });

  it('lists empty windows with 0', () => {
    expect(peaks([], 0, 15 * MIN)).toEqual([0, 0, 0]);
  });
});

describe('window rounding', () => {
  it('rounds start_time down and end_time up to the 5-minute marks', () => {
    expect(concurrencyWindows('2026-09-01T10:07:30Z', '2026-09-01T10:12:00Z')).toEqual(['2026-09-01T10:05:00.000Z', '2026-09-01T10:10:00.000Z']);
  });

  it('leaves times already on a mark where they are', () => {
    expect(concurrencyWindows('2026-09-01T10:05:00Z', '2026-09-01T10:15:00Z')).toEqual(['2026-09-01T10:05:00.000Z', '2026-09-01T10:10:00.000Z']);
  });
});
