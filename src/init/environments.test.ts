import { describe, expect, it } from 'vitest';
import { ClientEnv } from '../contract/common.js';
import { UsageError } from '../errors.js';
import { clientEnvOf, DEFAULT_ENVIRONMENTS, gateEnvironment, nightlyEnvironment, parseEnvironments, variablePrefix } from './environments.js';

describe('the environments of dialtone init', () => {
  it('default to staging and pre-release, and take a comma-separated list with spaces around names', () => {
    expect(parseEnvironments(undefined)).toEqual([...DEFAULT_ENVIRONMENTS]);
    expect(parseEnvironments('qa, pre-release ,prod-eu')).toEqual(['qa', 'pre-release', 'prod-eu']);
  });

  it.each([
    ['Staging', "'Staging' must match"],
    ['staging,', "'' must match"],
    ['-qa', "'-qa' must match"],
    ['qa_1', "'qa_1' must match"],
    ['', 'needs at least one name'],
    ['qa,qa', "'qa' is listed twice"],
  ])('refuse %j with a usage error', (text, message) => {
    expect(() => parseEnvironments(text)).toThrow(UsageError);
    expect(() => parseEnvironments(text)).toThrow(message);
  });

  it("map a name to the profile's environment, a value of the schema's enum, never live by default", () => {
    expect(clientEnvOf('pre-release')).toBe('pre-release');
    expect(clientEnvOf('eu-prerelease')).toBe('pre-release');
    expect(clientEnvOf('live')).toBe('live');
    expect(clientEnvOf('prod')).toBe('live');
    expect(clientEnvOf('production-us')).toBe('live');
    expect(clientEnvOf('sandbox')).toBe('sandbox');
    expect(clientEnvOf('staging')).toBe('pre-release');
    for (const name of ['staging', 'qa', 'live', 'sandbox', 'x1']) expect(ClientEnv.options).toContain(clientEnvOf(name));
  });

  it('make variable prefixes GitHub takes as secret names', () => {
    expect(variablePrefix('staging')).toBe('STAGING');
    expect(variablePrefix('pre-release')).toBe('PRE_RELEASE');
    expect(variablePrefix('1st')).toBe('DIALTONE_1ST');
    expect(variablePrefix('github')).toBe('DIALTONE_GITHUB');
    expect(variablePrefix('github-ci')).toBe('DIALTONE_GITHUB_CI');
    expect(variablePrefix('githubby')).toBe('GITHUBBY');
  });

  it('gate the pre-release environment (else the first) and load the first that is not live nightly (else the first)', () => {
    expect(gateEnvironment(['staging', 'pre-release'])).toBe('pre-release');
    expect(gateEnvironment(['qa', 'prod'])).toBe('qa');
    expect(nightlyEnvironment(['prod', 'staging', 'pre-release'])).toBe('staging');
    expect(nightlyEnvironment(['live', 'prod'])).toBe('live');
  });
});
