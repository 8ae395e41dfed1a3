// What k6/browser emits (/using-k6-browser/metrics/): read by its description and declared by its code.
import { type MetricDecl, trends } from '../../../core/metrics.js';

/** What k6/browser emits. */
export const BROWSER_METRICS: readonly MetricDecl[] = [
  { name: 'browser_http_req_duration', type: 'trend', contains: 'time' },
  { name: 'browser_http_req_failed', type: 'rate', contains: 'default' },
  { name: 'browser_data_received', type: 'counter', contains: 'data' },
  { name: 'browser_data_sent', type: 'counter', contains: 'data' },
  ...trends(['browser_web_vital_fcp', 'browser_web_vital_ttfb']),
  // Declared so thresholds on them are valid, as in k6; never emitted (browser.ts says why).
  ...trends(['browser_web_vital_lcp', 'browser_web_vital_inp']),
  { name: 'browser_web_vital_cls', type: 'trend', contains: 'default' },
];
