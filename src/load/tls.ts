import { createHash, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { caBundle, nodeTlsOptions, type Trust } from '../profile/tls.js';

/**
 * The environment that makes k6 trust what the profile trusts, with k6's (Go's) own means: SSL_CERT_FILE names a bundle
 * of the system roots plus the profile's CA (Go reads that file instead of the system's), and `insecure` becomes
 * K6_INSECURE_SKIP_TLS_VERIFY. The bundle is written into the run's kit directory.
 *
 * @example
 * k6TlsEnv({ ca: [pem], caFile: '/envs/ca.pem', insecure: false }, kitDir) // { SSL_CERT_FILE: '<kitDir>/ca-bundle.pem' }
 */
export function k6TlsEnv(trust: Trust, dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  const bundle = caBundle(trust);
  if (bundle) {
    const file = join(dir, 'ca-bundle.pem');
    writeFileSync(file, bundle);
    env.SSL_CERT_FILE = file;
  }
  if (trust.insecure) env.K6_INSECURE_SKIP_TLS_VERIFY = 'true';
  return env;
}

/** base64 SHA-256 of a certificate's SubjectPublicKeyInfo: the form Chromium's --ignore-certificate-errors-spki-list takes. */
export function spkiHash(certPem: string | Buffer): string {
  const key = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(key).digest('base64');
}

/**
 * The key of the certificate an https host presents, after Node verified its chain against the profile's trust; that
 * verified key is what Chromium is told to accept. Rejects when the chain does not verify, so Chromium is never told to
 * accept what Node refused.
 */
export function verifiedLeafSpki(url: string, trust: Trust, timeoutMs = 5_000): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: Number(u.port || 443),
      servername: /^[\d.]+$|:/.test(u.hostname) ? undefined : u.hostname,
      ...nodeTlsOptions(trust),
      timeout: timeoutMs,
    });
    socket.once('secureConnect', () => {
      const leaf: PeerCertificate = socket.getPeerCertificate();
      socket.end();
      if (!socket.authorized && !trust.insecure) return reject(new Error(`${u.host}: ${socket.authorizationError}`));
      resolve(spkiHash(Buffer.from(`-----BEGIN CERTIFICATE-----\n${leaf.raw.toString('base64')}\n-----END CERTIFICATE-----\n`)));
    });
    socket.once('timeout', () => socket.destroy(new Error(`${u.host}: no TLS handshake within ${timeoutMs} ms`)));
    socket.once('error', (e) => reject(e));
  });
}

/**
 * Chromium flags (k6's K6_BROWSER_ARGS form: no leading dashes) that make it trust an https gateway the way the
 * profile does. Chromium on Linux keeps its own store, so a private CA is given as the one key Chromium may accept:
 * the gateway's certificate key, verified by Node against the profile's CA first. One key, because K6_BROWSER_ARGS
 * splits on commas and the flag's list is comma-separated; the browser talks to the gateway host alone (the voice
 * client page is served by the scenario itself, ice-servers are fetched by k6). `insecure` turns verification off.
 */
export async function chromiumTrustArgs(gatewayUrl: string | undefined, trust: Trust): Promise<string[]> {
  if (!gatewayUrl?.startsWith('https:')) return [];
  if (trust.insecure) return ['ignore-certificate-errors'];
  if (!trust.ca) return [];
  return [`ignore-certificate-errors-spki-list=${await verifiedLeafSpki(gatewayUrl, trust)}`];
}
