// k6's exit codes, which the built-in engine gives as k6 does.

/** k6's exit codes (/get-started/... and errext/exitcodes, as the facts sheet lists them). */
export const EXIT = {
  ok: 0,
  thresholds: 99,
  invalidConfig: 104,
  externalAbort: 105,
  cannotStartRestApi: 106,
  scriptException: 107,
  scriptAborted: 108,
  scriptFailed: 110,
} as const;

/** A run that cannot go on: its exit code and the one log line that says why. */
export class Fatal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs `step`; anything it throws ends the run with `code` and the line `prefix` + the error's message.
 *
 * @example
 * const segment = orFatal(EXIT.invalidConfig, () => parseSegment(args.segment, args.sequence));
 */
export function orFatal<T>(code: number, step: () => T, prefix = ''): T {
  try {
    return step();
  } catch (e) {
    throw new Fatal(code, `${prefix}${(e as Error).message}`);
  }
}
