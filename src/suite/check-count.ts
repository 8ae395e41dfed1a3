import { CheckFailure, checks } from './checks.js';

/** The named checks of one case, counting how many it made. */
export interface CountedChecks {
  readonly check: typeof checks;
  /** How many named checks the case has made so far. */
  readonly count: () => number;
  /** Fails the case when it made no check: a documented-rule case that checks nothing can never fail. */
  readonly assertSome: (documented: string) => void;
}

/**
 * Wraps the named checks so a case's calls are counted. `rule()` gives each case its own copy and, for a documented
 * (closed) rule, fails a case whose body returned without making a single check.
 *
 * @example
 * const c = countingChecks();
 * c.check.equal(1, 1, 'one');
 * c.count() // 1
 * c.assertSome('close answers success: true') // passes
 */
export function countingChecks(): CountedChecks {
  let n = 0;
  const check = Object.fromEntries(
    Object.entries(checks).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        n++;
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as typeof checks;
  return {
    check,
    count: () => n,
    assertSome: (documented) => {
      if (n === 0) throw new CheckFailure('no-check', documented, 'the case made no check of what the target did');
    },
  };
}
