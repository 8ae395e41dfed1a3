// k6/experimental/fs (/javascript-api/k6-experimental/fs/): files opened in the init context.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/experimental/fs, as the engine provides it. */
export const description = describeModule({
  names: ['k6/experimental/fs'],
  code: async () => (await import('./fs.js')).fsModule as ModuleCode,
});
