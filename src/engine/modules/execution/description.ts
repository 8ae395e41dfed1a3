// k6/execution (/javascript-api/k6-execution/): the run, scenario and VU as the script sees them.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/execution, as the engine provides it. */
export const description = describeModule({
  names: ['k6/execution'],
  always: true,
  code: async () => (await import('./execution.js')).executionModule as ModuleCode,
});
