// k6/browser (/javascript-api/k6-browser/), on Playwright and the machine's Chromium.
import { describeModule, httpAnswered, type ModuleCode } from '../module-description.js';
import { BROWSER_METRICS } from './metrics.js';

/** k6/browser, as the engine provides it. */
export const description = describeModule({
  names: ['k6/browser'],
  metrics: BROWSER_METRICS,
  sending: ['browser'],
  drivesChromium: true,
  exchanges: { browser_http_req_duration: httpAnswered },
  code: async () => (await import('./browser.js')).browserModule as ModuleCode,
});
