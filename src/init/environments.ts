// The environments `dialtone init` sets a project up for: their names, the kind of environment each is (the profile's
// `environment`), the prefix of their credential variables, and which one the gate and the nightly load each run on.

import { ClientEnv } from '../contract/common.js';
import { UsageError } from '../errors.js';

/** A name becomes a file name, a variable prefix and a GitHub environment: lower case, digits and hyphens only. */
export const ENVIRONMENT_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** What `--environments` defaults to: a staging environment and the pre-release one the gate runs on. */
export const DEFAULT_ENVIRONMENTS = ['staging', 'pre-release'] as const;

/**
 * The names of `--environments` (comma-separated); a name that would not make a file and a variable prefix, an empty
 * list or a name given twice is a UsageError.
 *
 * @example
 * parseEnvironments('staging, pre-release'); // ['staging', 'pre-release']
 * parseEnvironments('Staging'); // throws UsageError: init: --environments: 'Staging' must match /^[a-z0-9][a-z0-9-]*$/
 */
export function parseEnvironments(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_ENVIRONMENTS];
  const names = text.split(',').map((n) => n.trim());
  if (names.every((n) => n === '')) throw new UsageError('init: --environments needs at least one name, e.g. staging,pre-release');
  for (const name of names) {
    if (!ENVIRONMENT_NAME.test(name)) throw new UsageError(`init: --environments: '${name}' must match ${ENVIRONMENT_NAME}`);
  }
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UsageError(`init: --environments: '${twice}' is listed twice`);
  return names;
}

const PRE_RELEASE = /pre-?release/;
const LIVE = /live|prod/;

/**
 * The profile's `environment` for an environment name: pre-release for a pre-release one, live for a production one, the
 * name itself when the schema has it (sandbox), else pre-release: a test environment that is not live, and never `live`
 * by default, since load against a live profile is refused without --allow-live.
 *
 * @example
 * clientEnvOf('prod-eu'); // 'live'
 * clientEnvOf('sandbox'); // 'sandbox'
 * clientEnvOf('staging'); // 'pre-release'
 */
export function clientEnvOf(name: string): ClientEnv {
  if (PRE_RELEASE.test(name)) return 'pre-release';
  if (LIVE.test(name)) return 'live';
  const own = ClientEnv.safeParse(name);
  return own.success ? own.data : 'pre-release';
}

/**
 * The prefix of an environment's credential variables: its name in UPPER_SNAKE_CASE. GitHub refuses secret names that
 * start with a digit or with GITHUB_, so those get DIALTONE_ in front.
 *
 * @example
 * variablePrefix('pre-release'); // 'PRE_RELEASE'
 * variablePrefix('1st'); // 'DIALTONE_1ST'
 */
export function variablePrefix(name: string): string {
  const upper = name.toUpperCase().replace(/-/g, '_');
  return /^([0-9]|GITHUB(_|$))/.test(upper) ? `DIALTONE_${upper}` : upper;
}

/**
 * The environment the release gate checks: the first pre-release one by name, else the first.
 *
 * @example
 * gateEnvironment(['staging', 'pre-release']); // 'pre-release'
 * gateEnvironment(['qa', 'prod']); // 'qa'
 */
export function gateEnvironment(names: readonly string[]): string {
  return names.find((n) => PRE_RELEASE.test(n)) ?? (names[0] as string);
}

/**
 * The environment the nightly load runs against: the first that is not live (a load run refuses a live profile
 * unless told --allow-live), else the first.
 *
 * @example
 * nightlyEnvironment(['prod', 'staging', 'pre-release']); // 'staging'
 */
export function nightlyEnvironment(names: readonly string[]): string {
  return names.find((n) => clientEnvOf(n) !== 'live') ?? (names[0] as string);
}
