// k6/experimental/webcrypto (/javascript-api/k6-experimental/webcrypto/): the Web Crypto API, deprecated by k6 for the
// global crypto but still documented.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/experimental/webcrypto, as the engine provides it. */
export const description = describeModule({
  names: ['k6/experimental/webcrypto'],
  code: async () => (await import('./webcrypto.js')).webcryptoModule as ModuleCode,
});
