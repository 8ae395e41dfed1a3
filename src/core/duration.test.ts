import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

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
