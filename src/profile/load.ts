import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { describeIssues } from './issues.js';
import { type CredentialName, Profile } from './schema.js';
import { trustOf } from './tls.js';

/** A profile with its secrets resolved from the environment, ready for clients. */
export interface LoadedProfile {
  readonly profile: Profile;
  readonly path: string | undefined;
  /** Secret values by credential name. Never printed: the report redacts every one of them. */
  readonly secrets: Partial<Record<CredentialName | 'control_token', string>>;
}

/** Formats the first zod issue as `file: field.path: message`, one line (dialogue and traffic-model files). */
export function describeIssue(source: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${source}: invalid`;
  const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return `${source}: ${field}: ${issue.message}`;
}

/**
 * Parses and validates a profile value; throws a UsageError naming every bad field at once, each with what was expected
 * and what was found.
 *
 * @example
 * parseProfile(JSON.parse(text), 'staging.json') // Profile, or UsageError "staging.json: hosts.base_url: must be an http(s) URL, found 'x'"
 */
export function parseProfile(value: unknown, source: string): Profile {
  const parsed = Profile.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new UsageError(describeIssues(source, parsed.error, Profile));
  return parsed.data;
}

/** An env file, read the way Node reads one (`util.parseEnv`: quotes, `export`, comments). */
function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`${path}: cannot read the profile's env_file`);
  }
  return parseEnv(text) as Record<string, string>;
}

/**
 * Resolves every credential reference from `env`, then the profile's env_file.
 * Missing variables are an error only for credentials the profile names.
 */
export function resolveSecrets(profile: Profile, path: string | undefined, env: NodeJS.ProcessEnv): LoadedProfile['secrets'] {
  const fileEnv = profile.env_file ? readEnvFile(resolve(path ? dirname(path) : '.', profile.env_file)) : {};
  const secrets: Record<string, string> = {};
  const refs: [string, { env: string } | undefined][] = [...Object.entries(profile.credentials), ['control_token', profile.control?.token]];
  const missing: string[] = [];
  for (const [name, ref] of refs) {
    if (!ref) continue;
    const value = env[ref.env] ?? fileEnv[ref.env];
    if (value === undefined || value === '')
      missing.push(`${name === 'control_token' ? 'control.token' : `credentials.${name}`}: environment variable ${ref.env} is not set`);
    else secrets[name] = value;
  }
  const source = path ?? 'profile';
  if (missing.length === 1) throw new UsageError(`${source}: ${missing[0]}`);
  if (missing.length > 1) throw new UsageError([`${source}: ${missing.length} problems:`, ...missing.map((m) => `  ${m}`)].join('\n'));
  return secrets;
}

/** Reads, validates and resolves a profile file. */
export function loadProfile(path: string, env: NodeJS.ProcessEnv = process.env): LoadedProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`${path}: profile not found or not readable`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path}: not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const profile = parseProfile(json, path);
  trustOf(profile, path); // a CA file that cannot be read is a usage error now, not a failed handshake later
  return { profile, path, secrets: resolveSecrets(profile, path, env) };
}

/** Secret values by environment variable name, for reproduce lines and the environment of k6. */
export function secretEnv(loaded: LoadedProfile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, ref] of Object.entries(loaded.profile.credentials)) {
    const v = loaded.secrets[name as keyof LoadedProfile['secrets']];
    if (ref && v) out[ref.env] = v;
  }
  if (loaded.profile.control && loaded.secrets.control_token) out[loaded.profile.control.token.env] = loaded.secrets.control_token;
  return out;
}
