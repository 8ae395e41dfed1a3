import { describe, expect, it } from 'vitest';
import { AdjustableClock } from './clock.js';
import {
  DEFAULT_RETENTION,
  describeRetention,
  FinishedOrder,
  parseRetainAge,
  parseRetainCount,
  RETAIN_AGE_ENV,
  RETAIN_ENV,
  RetainedLog,
  retentionOf,
} from './retention.js';

const MINUTE = 60_000;

describe('reading --retain and --retain-age', () => {
  it('reads a count of whole positive numbers and durations in ms, s, m or h', () => {
    expect(parseRetainCount('500')).toEqual({ value: 500 });
    expect(parseRetainAge('1500ms')).toEqual({ value: 1500 });
    expect(parseRetainAge('90s')).toEqual({ value: 90_000 });
    expect(parseRetainAge('30m')).toEqual({ value: 30 * MINUTE });
    expect(parseRetainAge('1.5h')).toEqual({ value: 90 * MINUTE });
  });

  it('refuses zero, negative, fractional and non-numeric counts with one line naming the flag', () => {
    for (const bad of ['0', '-5', '2.5', 'many', '', '1e3']) {
      expect(parseRetainCount(bad)).toEqual({ error: `--retain must be a positive whole number, got '${bad}'` });
    }
  });

  it('refuses a duration without a unit, with an unknown unit or of zero, with one line naming the flag', () => {
    for (const bad of ['30', '30d', '0m', 'soon', '-1h', '']) {
      expect(parseRetainAge(bad)).toEqual({ error: `--retain-age must be a positive duration such as 90s, 30m or 2h, got '${bad}'` });
    }
  });

  it('takes each bound from its flag, else its variable, else the default', () => {
    expect(retentionOf({}, {})).toEqual({ retention: DEFAULT_RETENTION });
    expect(retentionOf({}, { [RETAIN_ENV]: '300', [RETAIN_AGE_ENV]: '10m' })).toEqual({ retention: { maxCount: 300, maxAgeMs: 10 * MINUTE } });
    expect(retentionOf({ count: '7' }, { [RETAIN_ENV]: '300', [RETAIN_AGE_ENV]: '10m' })).toEqual({ retention: { maxCount: 7, maxAgeMs: 10 * MINUTE } });
    expect(retentionOf({ age: '2h' }, { [RETAIN_ENV]: ' ' })).toEqual({ retention: { maxCount: DEFAULT_RETENTION.maxCount, maxAgeMs: 120 * MINUTE } });
  });

  it('names the variable when a bad value came from the environment, and the flag when it came from the flag', () => {
    expect(retentionOf({}, { [RETAIN_ENV]: 'lots' })).toEqual({ error: `${RETAIN_ENV} must be a positive whole number, got 'lots'` });
    expect(retentionOf({}, { [RETAIN_AGE_ENV]: '5' })).toEqual({ error: `${RETAIN_AGE_ENV} must be a positive duration such as 90s, 30m or 2h, got '5'` });
    expect(retentionOf({ age: '5' }, { [RETAIN_AGE_ENV]: '10m' })).toEqual({
      error: "--retain-age must be a positive duration such as 90s, 30m or 2h, got '5'",
    });
  });

  it('describes a retention in the units the flag reads', () => {
    expect(describeRetention(DEFAULT_RETENTION)).toBe('10000 finished items per store, each for at most 1h');
    expect(describeRetention({ maxCount: 5, maxAgeMs: 90_000 })).toBe('5 finished items per store, each for at most 90s');
  });
});

describe('the order of finished items', () => {
  it('lets the oldest finished go first once more than the count have finished', () => {
    const order = new FinishedOrder<string>({ maxCount: 2, maxAgeMs: 60 * MINUTE });
    for (const [key, at] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const)
      order.finish(key, at);
    expect(order.expire(5)).toEqual(['a', 'b']);
    expect(order.size).toBe(2);
    expect(order.expire(5)).toEqual([]);
  });

  it('lets an item go once the age has passed since it finished, and not a millisecond before', () => {
    const order = new FinishedOrder<string>({ maxCount: 100, maxAgeMs: 10 * MINUTE });
    order.finish('a', 0);
    order.finish('b', MINUTE);
    expect(order.expire(10 * MINUTE - 1)).toEqual([]);
    expect(order.expire(10 * MINUTE)).toEqual(['a']);
    expect(order.expire(11 * MINUTE)).toEqual(['b']);
  });

  it('keeps the first finishing time when an item finishes twice', () => {
    const order = new FinishedOrder<string>({ maxCount: 100, maxAgeMs: 10 * MINUTE });
    order.finish('a', 0);
    order.finish('a', 5 * MINUTE);
    expect(order.expire(10 * MINUTE)).toEqual(['a']);
  });
});

describe('a retained log', () => {
  it('keeps the newest entries up to the count, oldest out first', () => {
    const log = new RetainedLog<number>({ maxCount: 3, maxAgeMs: 60 * MINUTE }, new AdjustableClock());
    for (let i = 1; i <= 5; i++) log.push(i);
    expect(log.values()).toEqual([3, 4, 5]);
  });

  it('drops entries once the age has passed on the target clock', () => {
    const clock = new AdjustableClock();
    const log = new RetainedLog<string>({ maxCount: 100, maxAgeMs: 10 * MINUTE }, clock);
    log.push('old');
    clock.advance(6 * MINUTE);
    log.push('new');
    clock.advance(5 * MINUTE);
    expect(log.values()).toEqual(['new']);
    clock.advance(5 * MINUTE);
    expect(log.values()).toEqual([]);
  });
});
