// What to tell a user whose run could not verify the target's certificate: the fix follows from what failed, so a CA
// file that names the wrong CA is not answered with "name a CA".
import { connect } from 'node:tls';
import type { Profile } from './schema.js';

/** The certificate a server presented, as far as a hint needs it. */
export interface PresentedCertificate {
  /** Who signed it (the issuer's common name, else its organisation). */
  readonly issuer: string | undefined;
  readonly validTo: string | undefined;
}

/** A verification failure, by the words Node's TLS layer uses for it. */
type Failure = 'untrusted' | 'hostname' | 'expired' | 'not-yet-valid';

const FAILURES: readonly [RegExp, Failure][] = [
  [/altnames|hostname|ERR_TLS_CERT_ALTNAME_INVALID/i, 'hostname'],
  [/has expired|CERT_HAS_EXPIRED/i, 'expired'],
  [/not yet valid|CERT_NOT_YET_VALID/i, 'not-yet-valid'],
  [/unable to verify|unable to get (local )?issuer|self.signed|CERT_|certificate/i, 'untrusted'],
];

/** The kind of a certificate failure, or undefined when the error is not one. */
export function certificateFailure(why: string): Failure | undefined {
  return FAILURES.find(([pattern]) => pattern.test(why))?.[1];
}

const signedBy = (cert: PresentedCertificate | undefined): string => (cert?.issuer ? ` (it is signed by '${cert.issuer}')` : '');

/**
 * The fix for a certificate failure, one clause: says what is wrong with the certificate or the CA the profile names.
 *
 * @example
 * const profile = { tls: { ca_file: 'ca.pem', insecure: false } };
 * tlsHint('unable to verify the first certificate', profile, 'staging.json', { issuer: 'Acme CA', validTo: undefined });
 * // "the CA in tls.ca_file of staging.json (ca.pem) does not sign the server's certificate (it is signed by 'Acme CA'): name the CA that does"
 */
export function tlsHint(why: string, profile: Pick<Profile, 'tls' | 'hosts'>, profilePath: string, cert?: PresentedCertificate): string | undefined {
  const failure = certificateFailure(why);
  if (!failure) return undefined;
  const caFile = profile.tls?.ca_file;
  const hints: Record<Failure, () => string> = {
    hostname: () => `the server's certificate does not name the host of hosts.base_url in ${profilePath} (${profile.hosts.base_url})`,
    expired: () => `the server's certificate expired${cert?.validTo ? ` on ${cert.validTo}` : ''}: the server must renew it`,
    'not-yet-valid': () => "the server's certificate is not valid yet: check this machine's clock or the certificate's start date",
    untrusted: () =>
      caFile
        ? `the CA in tls.ca_file of ${profilePath} (${caFile}) does not sign the server's certificate${signedBy(cert)}: name the CA that does`
        : `the server's certificate is not signed by a CA this machine trusts${signedBy(cert)}: name that CA in tls.ca_file of ${profilePath}`,
  };
  return hints[failure]();
}

/**
 * The certificate a TLS server presents, read without verifying it, so a hint can say who signed it; undefined when it
 * cannot be read within the time given.
 */
export function presentedCertificate(url: string, timeoutMs = 3_000): Promise<PresentedCertificate | undefined> {
  const { hostname, port, protocol } = new URL(url);
  if (protocol !== 'https:') return Promise.resolve(undefined);
  const host = hostname.replace(/^\[|\]$/g, '');
  return new Promise((done) => {
    const socket = connect({ host, port: Number(port || 443), servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: false });
    const finish = (cert: PresentedCertificate | undefined) => {
      socket.destroy();
      done(cert);
    };
    socket.setTimeout(timeoutMs, () => finish(undefined));
    socket.once('error', () => finish(undefined));
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate();
      const issuer = peer?.issuer as Record<string, string | undefined> | undefined;
      finish({ issuer: issuer?.CN ?? issuer?.O, validTo: peer?.valid_to });
    });
  });
}
