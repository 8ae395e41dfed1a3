import { webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the metadata polyfill loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/** What an https listener needs, PEM encoded; `ca` is what clients must trust (written to the profile's tls.ca_file). */
export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
  readonly ca: string;
}

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

const pemKey = async (key: CryptoKey) => x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey), 'PRIVATE KEY');

/**
 * A fresh CA and a server certificate it signs, for the reference target served over TLS: the names are the loopback
 * ones the target listens on (127.0.0.1, ::1, localhost). ECDSA P-256: quick to make, and every client dialtone drives
 * (Node, Go's k6, Chromium) accepts it. A new CA each start, so no key outlives the target.
 *
 * @example
 * const tls = await makeTlsMaterial();
 * https.createServer({ key: tls.key, cert: tls.cert }); // clients trust tls.ca
 */
export async function makeTlsMaterial(days = 30, hosts: readonly string[] = ['127.0.0.1', '::1', 'localhost']): Promise<TlsMaterial> {
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + days * DAY_MS);
  const caKeys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=dialtone reference target CA',
    notBefore,
    notAfter,
    keys: caKeys as CryptoKeyPair,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey as CryptoKey),
    ],
  });
  const leafKeys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const names = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=dialtone reference target',
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingKey: caKeys.privateKey as CryptoKey,
    publicKey: leafKeys.publicKey as CryptoKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(ca, false),
    ],
  });
  // The chain the server sends holds the CA too, so a client that pins keys (Chromium's SPKI list) sees it.
  return { key: await pemKey(leafKeys.privateKey as CryptoKey), cert: `${leaf.toString('pem')}\n${ca.toString('pem')}\n`, ca: `${ca.toString('pem')}\n` };
}

/** A positive random serial number, as hex. */
function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
