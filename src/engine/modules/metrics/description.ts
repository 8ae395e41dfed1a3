// k6/metrics (/javascript-api/k6-metrics/): the script's own Counter, Gauge, Rate and Trend.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/metrics, as the engine provides it. */
export const description = describeModule({
  names: ['k6/metrics'],
  always: true,
  code: async () => (await import('./metrics.js')).metricsModule as ModuleCode,
});
