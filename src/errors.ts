/** A mistake in how dialtone was called or configured: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A target that did not answer in time, or k6 that could not be found or installed: exit code 3. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

/**
 * Every exit code dialtone gives, in one table (ARCHITECTURE.md and docs/reports.md, "Exit codes", say the same). Scripts and CI
 * read these numbers, so they never change meaning.
 */
export const EXIT = {
  ok: 0,
  /** A documented rule failed, a defect was not caught exactly, or a load threshold failed. */
  failed: 1,
  usage: 2,
  environment: 3,
  /** A fault in dialtone itself (a bug, not the target's or the user's): never read as a failed rule. */
  internal: 4,
  loadNotDelivered: 5,
  regressed: 6,
  /** k6's own code for a threshold that failed, which the built-in engine gives too. */
  thresholds: 99,
  /** Stopped by SIGINT, SIGTERM or SIGHUP before the end: what ran was written and marked so. k6's ExternalAbort. */
  interrupted: 105,
} as const;
