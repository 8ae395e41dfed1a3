// k6/timers (/javascript-api/k6-timers/): setTimeout and setInterval on the VU's event loop.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/timers, as the engine provides it. */
export const description = describeModule({
  names: ['k6/timers'],
  always: true,
  code: async () => (await import('./timers.js')).timersModule as ModuleCode,
});
