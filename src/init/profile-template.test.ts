import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_NAMES } from '../contract/names.js';
import { defaultsOf } from '../load/defaults.js';
import { checkExpectations } from '../load/expectations.js';
import { loadProfile } from '../profile/load.js';
import { Credentials, Profile } from '../profile/schema.js';
import { CREDENTIAL_NAMES, credentialVariable, credentialVariables, HOST_NAMES, profilePath, profileTemplate, profileText } from './profile-template.js';

const dir = mkdtempSync(join(tmpdir(), 'dialtone-init-profile-'));

/** Writes a profile's text to a file of its own and loads it through the real loader, with `env` as the environment. */
function load(name: string, text: string, env: NodeJS.ProcessEnv) {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, text);
  return loadProfile(path, env);
}

/** Every credential variable of an environment, set to a value of its own. */
const envOf = (environment: string) => Object.fromEntries(credentialVariables(environment).map((v) => [v, `value-of-${v}`]));

describe('the profile template of dialtone init', () => {
  it.each(['staging', 'pre-release', 'prod', 'sandbox', '1st'])('loads through the profile loader once the variables of %s are set', (name) => {
    const loaded = load(name, profileText(name), envOf(name));
    expect(loaded.profile.name).toBe(name);
    expect(loaded.profile.kind).toBe('real');
    expect(Object.keys(loaded.secrets).sort()).toEqual([...CREDENTIAL_NAMES].sort());
    for (const c of CREDENTIAL_NAMES) expect(loaded.secrets[c]).toBe(`value-of-${credentialVariable(name, c)}`);
    // Its SLOs are taken as a load run takes them, before anything runs.
    expect(() => checkExpectations(loaded.profile, name)).not.toThrow();
  });

  it('is refused by the loader when a variable is not set, a field is wrong or a key is unknown (so the check above can fail)', () => {
    const { STAGING_OUTBOUND_TOKEN: _, ...partial } = envOf('staging');
    expect(() => load('partial', profileText('staging'), partial)).toThrow(
      /credentials\.outbound_token: environment variable STAGING_OUTBOUND_TOKEN is not set/,
    );
    const badHost = { ...profileTemplate('staging'), hosts: { ...profileTemplate('staging').hosts, base_url: 'base.staging.example.com' } };
    expect(() => load('bad-host', JSON.stringify(badHost), envOf('staging'))).toThrow(/hosts\.base_url: must be an http\(s\) URL/);
    // The schema is strict, which is why the template carries no `_comment` key.
    expect(() => load('commented', JSON.stringify({ _comment: 'fill me in', ...profileTemplate('staging') }), envOf('staging'))).toThrow(
      /_comment: expected no such field at the top level/,
    );
    const badSlo = { ...profileTemplate('staging'), slos: { 'chat-turns': { 'no_such_metric{op:chat.respond}': ['p(95)<500'] } } };
    expect(() => checkExpectations(load('bad-slo', JSON.stringify(badSlo), envOf('staging')).profile, 'bad-slo')).toThrow(
      /expected a metric this scenario emits \(.*\), found 'no_such_metric'/,
    );
  });

  it("names every host and credential of the schema, credentials by variable only, and leaves tls to the system's store", () => {
    const t = profileTemplate('pre-release');
    expect(Object.keys(t.hosts)).toEqual(Object.keys(Profile.shape.hosts.shape));
    expect(HOST_NAMES).toEqual(Object.keys(Profile.shape.hosts.shape));
    for (const url of Object.values(t.hosts)) expect(url).toMatch(/^https:\/\/[a-z-]+\.pre-release\.example\.com$/);
    expect(Object.keys(t.credentials)).toEqual(Object.keys(Credentials.shape));
    expect(t.credentials.chat_api_key).toEqual({ env: 'PRE_RELEASE_CHAT_API_KEY' });
    expect(Object.values(t.credentials).every((ref) => ref && Object.keys(ref).join() === 'env')).toBe(true);
    expect(t.environment).toBe('pre-release');
    expect('tls' in t).toBe(false);
  });

  it("shows the reference names and chat-turns' default SLOs, taken from their sources", () => {
    const t = profileTemplate('staging');
    expect(t.names).toEqual(REFERENCE_NAMES);
    expect(t.slos).toEqual({ 'chat-turns': defaultsOf('chat-turns').slos });
    expect(t.chat_script).toEqual(Profile.parse({ ...t, chat_script: undefined }).chat_script);
    // A copy, so a change to one template never reaches the defaults.
    expect(t.slos?.['chat-turns']).not.toBe(defaultsOf('chat-turns').slos);
  });

  it('goes to dialtone/profiles/NAME.json, as JSON a person can read: one short reference per line', () => {
    expect(profilePath('staging')).toBe('dialtone/profiles/staging.json');
    const text = profileText('staging');
    expect(JSON.parse(text)).toEqual(profileTemplate('staging'));
    expect(text).toMatch(/^ {4}"chat_api_key": \{ "env": "STAGING_CHAT_API_KEY" \},$/m);
    expect(text).toMatch(/^ {6}"http_req_failed": \["rate<0\.01"\],$/m);
    expect(text.endsWith('}\n')).toBe(true);
  });
});
