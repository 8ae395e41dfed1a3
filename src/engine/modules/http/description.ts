// k6/http (/javascript-api/k6-http/): its requests block the VU in k6; each one sends.
import { describeModule, httpAnswered, type ModuleCode } from '../module-description.js';
import { HTTP_METRICS } from './metrics.js';

/** k6/http, as the engine provides it. */
export const description = describeModule({
  names: ['k6/http'],
  metrics: HTTP_METRICS,
  blocking: ['get', 'post', 'put', 'patch', 'del', 'head', 'options', 'request', 'batch'],
  sending: ['get', 'post', 'put', 'patch', 'del', 'head', 'options', 'request', 'batch', 'asyncRequest'],
  exchanges: { http_reqs: httpAnswered },
  code: async () => (await import('./http.js')).httpModule as ModuleCode,
});
