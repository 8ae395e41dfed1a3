// k6/crypto (/javascript-api/k6-crypto/): hashes, HMAC and random bytes.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/crypto, as the engine provides it. */
export const description = describeModule({
  names: ['k6/crypto'],
  code: async () => (await import('./crypto.js')).cryptoModule as ModuleCode,
});
