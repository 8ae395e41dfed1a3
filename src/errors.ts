/** A mistake in how dialtone was called or configured: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A target that did not answer in time, or k6 that could not be found or installed: exit code 3. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

/** A fault in dialtone itself (a bug, not the target's or the user's): its own code, so it never reads as a failed rule. */
export const EXIT_INTERNAL = 4;
