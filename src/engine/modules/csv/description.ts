// k6/experimental/csv (/javascript-api/k6-experimental/csv/): CSV files read through k6/experimental/fs.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/experimental/csv, as the engine provides it. */
export const description = describeModule({
  names: ['k6/experimental/csv'],
  code: async () => (await import('./csv.js')).csvModule as ModuleCode,
});
