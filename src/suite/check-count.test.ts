import { describe, expect, it } from 'vitest';
import { countingChecks } from './check-count.js';
import { CheckFailure } from './checks.js';

describe('a documented-rule case that checks nothing', () => {
  it('fails with a no-check CheckFailure when the case made no check', () => {
    const c = countingChecks();
    expect(() => c.assertSome('close answers success: true')).toThrow(CheckFailure);
    try {
      c.assertSome('close answers success: true');
    } catch (e) {
      expect((e as CheckFailure).check).toBe('no-check');
      expect((e as CheckFailure).documented).toBe('close answers success: true');
    }
  });

  it('passes once the case made a check, whichever it was, and counts each one', () => {
    const c = countingChecks();
    c.check.equal(1, 1, 'one');
    expect(() => c.check.that(false, 'a condition', 'not met')).toThrow(CheckFailure);
    expect(c.count()).toBe(2);
    expect(() => c.assertSome('anything')).not.toThrow();
  });
});
