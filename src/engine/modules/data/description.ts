// k6/data (/javascript-api/k6-data/): SharedArray.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/data, as the engine provides it. */
export const description = describeModule({
  names: ['k6/data'],
  always: true,
  code: async () => (await import('./data.js')).dataModule as ModuleCode,
});
