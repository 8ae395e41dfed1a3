import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { parseProfile, resolveSecrets } from './load.js';
import { redact } from './redact.js';
import { agentReplyWait, profileWait } from './schema.js';

const base = {
  name: 'staging',
  environment: 'pre-release',
  region: 'uk-1',
  hosts: { base_url: 'https://runtime.example.test' },
  account_id: 'acme',
  project_id: 'support',
  credentials: { chat_api_key: { env: 'ACME_KEY' } },
};

describe('parseProfile', () => {
  it('fills the documented defaults', () => {
    const p = parseProfile(base, 'p.json');
    expect(p.api_version).toBe('v1');
    expect(p.kind).toBe('real');
  });

  it('names the bad field and the file in one line', () => {
    expect(() => parseProfile({ ...base, region: 'mars-1' }, 'p.json')).toThrow(/^p\.json: region: /);
  });

  it('reports every mistake of a profile in one block, each with what was expected and what was found', () => {
    const { account_id: _, ...rest } = base;
    const three = { ...rest, environment: 'prod', hosts: { base_url: 'api.example.test' }, acount_id: 'acme' };
    expect(() => parseProfile(three, 'p.json')).toThrow(
      new UsageError(
        [
          'p.json: 4 problems:',
          "  environment: expected one of sandbox, pre-release, live, found 'prod'",
          "  hosts.base_url: must be an http(s) URL, found 'api.example.test'",
          '  account_id: expected a string, found nothing (the field is required)',
          "  acount_id: expected 'account_id' at the top level, found 'acount_id'",
        ].join('\n'),
      ),
    );
  });

  it('says of an empty profile every field it lacks, not the first alone', () => {
    expect(() => parseProfile({}, 'p.json')).toThrow(/^p\.json: 6 problems:\n {2}name: expected a string, found nothing/);
  });

  it('names a number where a string belongs, and an unknown field with no near name', () => {
    expect(() => parseProfile({ ...base, name: 3 }, 'p.json')).toThrow(new UsageError('p.json: name: expected a string, found 3 (a number)'));
    expect(() => parseProfile({ ...base, zzz: 1 }, 'p.json')).toThrow(
      new UsageError("p.json: zzz: expected no such field at the top level, found 'zzz' (a typo?)"),
    );
  });

  it('never shows a value written where a credential belongs: it may be the secret itself', () => {
    const inline = { ...base, credentials: { chat_api_key: 'sk-inline-7f3a' }, control: { url: 'https://c.example.test', token: 'tok-inline-9b2c' } };
    let message = '';
    try {
      parseProfile(inline, 'p.json');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('credentials.chat_api_key: expected an object, found a string (not shown');
    expect(message).toContain('control.token: expected an object, found a string (not shown');
    expect(message).not.toContain('sk-inline-7f3a');
    expect(message).not.toContain('tok-inline-9b2c');
  });

  it('rejects an unknown top-level field rather than ignoring a typo', () => {
    expect(() => parseProfile({ ...base, base_url: 'x' }, 'p.json')).toThrow(UsageError);
  });

  it('rejects an environment variable name that is not UPPER_SNAKE_CASE', () => {
    expect(() => parseProfile({ ...base, credentials: { chat_api_key: { env: 'lower' } } }, 'p.json')).toThrow(/credentials\.chat_api_key\.env/);
  });
});

describe('resolveSecrets', () => {
  it('reads each referenced variable from the environment', () => {
    const p = parseProfile(base, 'p.json');
    expect(resolveSecrets(p, 'p.json', { ACME_KEY: 'abc123' })).toEqual({ chat_api_key: 'abc123' });
  });

  it('names the missing variable without printing any value', () => {
    const p = parseProfile(base, 'p.json');
    expect(() => resolveSecrets(p, 'p.json', {})).toThrow('p.json: credentials.chat_api_key: environment variable ACME_KEY is not set');
  });

  it('names every missing variable at once', () => {
    const p = parseProfile({ ...base, credentials: { chat_api_key: { env: 'ACME_KEY' }, agents_api_key: { env: 'ACME_AGENTS' } } }, 'p.json');
    expect(() => resolveSecrets(p, 'p.json', {})).toThrow(
      new UsageError(
        [
          'p.json: 2 problems:',
          '  credentials.chat_api_key: environment variable ACME_KEY is not set',
          '  credentials.agents_api_key: environment variable ACME_AGENTS is not set',
        ].join('\n'),
      ),
    );
  });
});

describe('redact', () => {
  it('removes every occurrence of every secret', () => {
    expect(redact('a=s3cret; b=s3cret; c=t0ken!', ['s3cret', 't0ken!'])).toBe('a=[redacted]; b=[redacted]; c=[redacted]');
  });

  it('ignores values too short to be secrets, so it does not shred ordinary text', () => {
    expect(redact('abc', ['a'])).toBe('abc');
  });
});

describe('the env file a profile names', () => {
  it('is read the way Node reads one: quotes removed, export lines kept, comments dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-env-'));
    writeFileSync(join(dir, 'p.env'), 'export ACME_KEY="abc 123"\n# a comment\nOTHER=\'x\'\n');
    const p = parseProfile({ ...base, env_file: 'p.env' }, join(dir, 'p.json'));
    expect(resolveSecrets(p, join(dir, 'p.json'), {})).toEqual({ chat_api_key: 'abc 123' });
  });
});

describe("a profile's agent reply wait", () => {
  it('is the default 3000 ms when the profile names none, and says so', () => {
    expect(agentReplyWait(parseProfile(base, 'p.json'))).toEqual({ ms: 3000, source: 'default' });
  });

  it("is the profile's waits.agent_reply_ms when it names one, and says so", () => {
    expect(agentReplyWait(parseProfile({ ...base, waits: { agent_reply_ms: 15_000 } }, 'p.json'))).toEqual({ ms: 15_000, source: 'profile' });
  });

  it('refuses a wait that is not a positive whole number of ms, naming the field', () => {
    expect(() => parseProfile({ ...base, waits: { agent_reply_ms: '15s' } }, 'p.json')).toThrow(/^p\.json: waits\.agent_reply_ms: /);
    expect(() => parseProfile({ ...base, waits: { agent_reply_ms: 0 } }, 'p.json')).toThrow(/^p\.json: waits\.agent_reply_ms: /);
  });
});

describe("a profile's case bound", () => {
  it('is the default 30000 ms when the profile names none, the agent reply wait named or not, and says so', () => {
    expect(profileWait(parseProfile(base, 'p.json'), 'case_ms')).toEqual({ ms: 30_000, source: 'default' });
    expect(profileWait(parseProfile({ ...base, waits: { agent_reply_ms: 15_000 } }, 'p.json'), 'case_ms')).toEqual({ ms: 30_000, source: 'default' });
  });

  it("is the profile's waits.case_ms when it names one, the agent reply wait keeping its default", () => {
    const p = parseProfile({ ...base, waits: { case_ms: 90_000 } }, 'p.json');
    expect([profileWait(p, 'case_ms'), agentReplyWait(p)]).toEqual([
      { ms: 90_000, source: 'profile' },
      { ms: 3000, source: 'default' },
    ]);
  });

  it('refuses a bound that is not a positive whole number of ms, naming the field', () => {
    expect(() => parseProfile({ ...base, waits: { case_ms: '90s' } }, 'p.json')).toThrow(/^p\.json: waits\.case_ms: /);
    expect(() => parseProfile({ ...base, waits: { case_ms: -1 } }, 'p.json')).toThrow(/^p\.json: waits\.case_ms: /);
  });
});
