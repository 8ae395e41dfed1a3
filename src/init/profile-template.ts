// The profile `dialtone init` writes per environment: every host and credential the schema knows, with placeholders
// where only the platform team knows the value, and dialtone's defaults where it has one (names, chat script, SLOs), so
// the team sees the shape of what it may change. Everything is read from the schema, the names and the scenario
// defaults, so a field added there shows up here.

import { AgentsRegion, RuntimeRegion } from '../contract/common.js';
import { REFERENCE_NAMES } from '../contract/names.js';
import { defaultsOf } from '../load/defaults.js';
import { type CredentialName, Credentials, Profile, WAIT_DEFAULTS } from '../profile/schema.js';
import { clientEnvOf, variablePrefix } from './environments.js';

/** Every credential of the schema, in its order. */
export const CREDENTIAL_NAMES = Object.keys(Credentials.shape) as CredentialName[];

type HostName = keyof Profile['hosts'];
/** Every host of the schema, in its order. */
export const HOST_NAMES = Object.keys(Profile.shape.hosts.shape) as HostName[];

/** The scenario whose default SLOs the template shows, as an example of the `slos` shape. */
export const SLO_EXAMPLE_SCENARIO = 'chat-turns';

/** What the template holds: the fields a team fills in or is likely to change; the rest keep the schema's defaults. */
export type ProfileTemplate = Pick<
  Profile,
  | 'name'
  | 'environment'
  | 'region'
  | 'api_version'
  | 'hosts'
  | 'agents_region'
  | 'account_id'
  | 'project_id'
  | 'credentials'
  | 'chat_script'
  | 'names'
  | 'slos'
  | 'waits'
>;

/**
 * The environment variable that holds one credential of an environment.
 *
 * @example
 * credentialVariable('staging', 'chat_api_key'); // 'STAGING_CHAT_API_KEY'
 */
export function credentialVariable(environment: string, credential: CredentialName): string {
  return `${variablePrefix(environment)}_${credential.toUpperCase()}`;
}

/**
 * Every credential variable an environment's profile names, in the schema's order: the CI secrets it needs.
 *
 * @example
 * credentialVariables('pre-release')[0]; // 'PRE_RELEASE_CHAT_API_KEY'
 */
export function credentialVariables(environment: string): string[] {
  return CREDENTIAL_NAMES.map((c) => credentialVariable(environment, c));
}

/** A placeholder per host: example.com never resolves to someone's platform, and the label says which host it is. */
const placeholderUrl = (environment: string, host: HostName) => `https://${host.replace(/_url$/, '').replace(/_/g, '-')}.${environment}.example.com`;

/**
 * The profile template of one environment: valid under the profile schema once its credential variables are set.
 *
 * @example
 * profileTemplate('staging').credentials.chat_api_key; // { env: 'STAGING_CHAT_API_KEY' }
 * profileTemplate('staging').hosts.base_url; // 'https://base.staging.example.com'
 */
export function profileTemplate(environment: string): ProfileTemplate {
  const { shape } = Profile;
  return {
    name: environment,
    environment: clientEnvOf(environment),
    // The schema's first region: a placeholder like the hosts, which the team sets to where its platform runs.
    region: RuntimeRegion.options[0]!,
    api_version: shape.api_version.parse(undefined),
    hosts: Object.fromEntries(HOST_NAMES.map((h) => [h, placeholderUrl(environment, h)])) as ProfileTemplate['hosts'],
    agents_region: AgentsRegion.options[0],
    account_id: 'your-account-id',
    project_id: 'your-project-id',
    credentials: Object.fromEntries(CREDENTIAL_NAMES.map((c) => [c, { env: credentialVariable(environment, c) }])),
    // The reference agent's phrases: a real agent hands off and says goodbye on its own cues.
    chat_script: shape.chat_script.parse(undefined),
    names: structuredClone(REFERENCE_NAMES),
    slos: { [SLO_EXAMPLE_SCENARIO]: structuredClone(defaultsOf(SLO_EXAMPLE_SCENARIO).slos) },
    // The reference platform's: one whose agent takes seconds sets its slowest reply and some, and one whose every
    // answer takes a second or more a longer bound for a case's requests in turn.
    waits: { ...WAIT_DEFAULTS },
  };
}

/**
 * The template as the file's text: JSON, two-space indented, short lists on one line, one trailing newline.
 *
 * @example
 * writeFileSync('dialtone/profiles/staging.json', profileText('staging'));
 */
export function profileText(environment: string): string {
  return `${compactJson(profileTemplate(environment), '')}\n`;
}

/**
 * JSON as a person writes it: two-space indents, with an object or array of plain values on one line when it fits
 * (`{ "env": "STAGING_CHAT_API_KEY" }`, `["p(95)<500"]`), so a profile reads as the examples in docs/ do.
 */
function compactJson(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries: [string | undefined, unknown][] = Array.isArray(value) ? value.map((v) => [undefined, v]) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const item = ([k, v]: [string | undefined, unknown], at: string) => `${k === undefined ? '' : `${JSON.stringify(k)}: `}${compactJson(v, at)}`;
  const flat = entries.every(([, v]) => v === null || typeof v !== 'object');
  const pad = Array.isArray(value) ? '' : ' ';
  const line = `${open}${pad}${entries.map((e) => item(e, indent)).join(', ')}${pad}${close}`;
  if (flat && indent.length + line.length <= 100) return line;
  const inner = `${indent}  `;
  return `${open}\n${entries.map((e) => `${inner}${item(e, inner)}`).join(',\n')}\n${indent}${close}`;
}

/**
 * Where an environment's profile goes, relative to the project.
 *
 * @example
 * profilePath('staging'); // 'dialtone/profiles/staging.json'
 */
export function profilePath(environment: string): string {
  return `dialtone/profiles/${environment}.json`;
}
