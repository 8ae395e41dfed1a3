// k6/encoding (/javascript-api/k6-encoding/): base64.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/encoding, as the engine provides it. */
export const description = describeModule({
  names: ['k6/encoding'],
  code: async () => (await import('./encoding.js')).encodingModule as ModuleCode,
});
