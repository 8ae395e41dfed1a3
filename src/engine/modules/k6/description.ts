// k6 (/javascript-api/k6/): check, group, sleep, fail; `sleep()` blocks the VU in k6.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6, as the engine provides it. */
export const description = describeModule({
  names: ['k6'],
  blocking: ['sleep'],
  waitsFor: ['group'],
  always: true,
  code: async () => (await import('./k6.js')).k6Module as ModuleCode,
});
