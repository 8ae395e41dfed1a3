import { describe, expect, it } from 'vitest';
import { durationSeconds, formatDuration, parseDuration } from './duration.js';

describe('parseDuration', () => {
  it('reads Go duration strings with one or several units', () => {
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('250us')).toBeCloseTo(0.25);
    expect(parseDuration('0')).toBe(0);
  });

  it('takes a number as milliseconds', () => {
    expect(parseDuration(2500)).toBe(2500);
  });

  it('refuses a number without a unit, an unknown unit, and an empty string', () => {
    expect(() => parseDuration('10')).toThrow(/invalid duration/);
    expect(() => parseDuration('10d')).toThrow(/invalid duration/);
    expect(() => parseDuration('')).toThrow(/invalid duration/);
    expect(() => parseDuration('s')).toThrow(/invalid duration/);
  });
});

describe('formatDuration', () => {
  it('prints times as Go prints durations, two decimals at most', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(0.01225)).toBe('12.25µs');
    expect(formatDuration(148.2149)).toBe('148.21ms');
    expect(formatDuration(1350)).toBe('1.35s');
    expect(formatDuration(62_500)).toBe('1m2.5s');
    expect(formatDuration(3_723_000)).toBe('1h2m3s');
    expect(formatDuration(1500, { unit: 'ms' })).toBe('1500ms');
  });

  it('keeps the decimals asked for and writes a fixed unit when one is asked for', () => {
    expect(formatDuration(1234.5678, { digits: 3 })).toBe('1.235s');
    expect(formatDuration(2500, { unit: 's' })).toBe('2.5s');
    expect(formatDuration(1.5, { unit: 'us' })).toBe('1500µs');
  });

  it('writes what parseDuration reads back to the same milliseconds', () => {
    for (const ms of [0, 0.25, 80, 1500, 62_500, 3_723_000]) expect(parseDuration(formatDuration(ms, { digits: 3 }))).toBeCloseTo(ms, 6);
  });
});

describe('durationSeconds', () => {
  it('reads Go durations as k6 prints them in seconds and refuses anything else', () => {
    expect(durationSeconds('1m30.5s')).toBe(90.5);
    expect(durationSeconds('500ms')).toBe(0.5);
    expect(durationSeconds('soon')).toBeUndefined();
  });
});
