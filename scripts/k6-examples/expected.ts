// What k6 does with each of its examples where that is not "exit 0, every check passed", in our words, and the
// examples that cannot run here at all. Keyed by the script's path under examples/.

export interface Expectation {
  /** k6's exit code for the script (0 when unset). */
  readonly exit?: number;
  /** How many checks fail on k6 too (0 when unset). */
  readonly checkFails?: number;
  /** Why it is not run here: an extension, or a service no stand-in can replace. */
  readonly skip?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly note?: string;
}

export const EXPECTED: Readonly<Record<string, Expectation>> = {};

/** Scripts whose own options run for minutes: k6's -d/-u flags shorten them (they replace the stages). */
export const SHORTENED: Readonly<Record<string, readonly string[]>> = {
  'thresholds_readme_example.js': ['-u', '5', '-d', '15s'],
  'docker-compose/opentelemetry/script.js': ['-d', '10s'],
};
