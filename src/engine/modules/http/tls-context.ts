// One TLS secure context per trust in a worker: passing `ca` to each connection makes Node parse the whole bundle
// (SSL_CERT_FILE holds the system roots plus the profile's CA) again for every handshake.
import { createSecureContext, type SecureContext } from 'node:tls';

const contexts = new Map<string, SecureContext>();

/**
 * The secure context that trusts `ca` (PEM), made once; undefined when `ca` is undefined (Node's default roots).
 *
 * @example
 * tls.connect({ host, port, secureContext: secureContextOf(vu.tls.ca) });
 */
export function secureContextOf(ca: string | undefined): SecureContext | undefined {
  if (ca === undefined) return undefined;
  let ctx = contexts.get(ca);
  if (!ctx) {
    ctx = createSecureContext({ ca });
    contexts.set(ca, ctx);
  }
  return ctx;
}
