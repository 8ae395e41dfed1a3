// k6/experimental/webcrypto for the built-in engine (/javascript-api/k6-experimental/webcrypto/): "The module exports
// a top-level crypto object" with getRandomValues, randomUUID and subtle. k6 has since made the same object a global
// and deprecates this import, but still documents it; Node's Web Crypto is that API.
import { webcrypto } from 'node:crypto';

/** The module's exports: `crypto`. */
export function webcryptoModule() {
  return { crypto: webcrypto };
}
