import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { UsageError } from '../errors.js';
import type { Profile } from './schema.js';

/**
 * How a run trusts the target's TLS certificates: the system store, plus the profile's CA when it names one
 * (`tls.ca_file`), or no verification at all when the profile says `tls.insecure` (never the default).
 */
export interface Trust {
  /** PEM certificates to trust besides the system store; undefined: the system store alone. */
  readonly ca: readonly string[] | undefined;
  /** The CA file as an absolute path, for tools that read a file (k6 through SSL_CERT_FILE, Chromium's SPKI list). */
  readonly caFile: string | undefined;
  /** Skip certificate verification: the report says so whenever it is on. */
  readonly insecure: boolean;
}

/** The system store alone, verification on: what a profile without `tls` gets. */
export const SYSTEM_TRUST: Trust = { ca: undefined, caFile: undefined, insecure: false };

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const cache = new Map<string, readonly string[]>();
/** One Trust object per setting, so clients can key their keep-alive agents on it. */
const trusts = new Map<string, Trust>();

/** The certificates of a PEM file; a file that is missing or holds none is a usage error naming the field. */
function readCertificates(file: string, source: string): readonly string[] {
  const known = cache.get(file);
  if (known) return known;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${source}: tls.ca_file: cannot read ${file}`);
  }
  const certs = text.match(PEM_CERT) ?? [];
  if (certs.length === 0) throw new UsageError(`${source}: tls.ca_file: ${file} holds no PEM certificate`);
  cache.set(file, certs);
  return certs;
}

/**
 * The trust a profile asks for; `ca_file` is relative to the profile file. Reading the CA here, when the profile is
 * loaded, makes a bad file a one-line usage error before anything runs.
 *
 * @example
 * trustOf({ ...profile, tls: { ca_file: 'ca.pem' } }, '/envs/staging.json') // { ca: ['-----BEGIN CERTIFICATE…'], caFile: '/envs/ca.pem', insecure: false }
 */
export function trustOf(profile: Profile, path: string | undefined): Trust {
  const tls = profile.tls;
  if (!tls) return SYSTEM_TRUST;
  const caFile = tls.ca_file ? resolve(path ? dirname(path) : '.', tls.ca_file) : undefined;
  const ca = caFile ? readCertificates(caFile, path ?? 'profile') : undefined;
  const key = `${caFile ?? ''}|${tls.insecure}`;
  const known = trusts.get(key);
  if (known) return known;
  const trust: Trust = { ca, caFile, insecure: tls.insecure };
  trusts.set(key, trust);
  return trust;
}

/** One secure context per trust: parsing the system roots plus the CA for every connection costs milliseconds each. */
const contexts = new WeakMap<Trust, SecureContext>();

/**
 * Node TLS options for a trust: the profile's CA is added to the system store rather than replacing it, so a profile
 * whose hosts mix a private CA and a public one still verifies both. The secure context is made once per trust.
 */
export function nodeTlsOptions(trust: Trust): { secureContext?: SecureContext; rejectUnauthorized: boolean } {
  if (!trust.ca) return { rejectUnauthorized: !trust.insecure };
  let secureContext = contexts.get(trust);
  if (!secureContext) {
    secureContext = createSecureContext({ ca: [...rootCertificates, ...trust.ca] });
    contexts.set(trust, secureContext);
  }
  return { secureContext, rejectUnauthorized: !trust.insecure };
}

/**
 * The system store and the profile's CA as one PEM bundle, for Go's SSL_CERT_FILE (k6): Go reads that file instead of
 * the system's, so the system roots must be in it too.
 */
export function caBundle(trust: Trust): string | undefined {
  return trust.ca ? `${[...rootCertificates, ...trust.ca].join('\n')}\n` : undefined;
}
