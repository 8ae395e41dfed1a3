// k6/websockets (/javascript-api/k6-websockets/), also imported by its experimental name: a socket sends.
import { describeModule, httpAnswered, type ModuleCode } from '../module-description.js';
import { WS_METRICS } from './metrics.js';

/** k6/websockets, as the engine provides it. */
export const description = describeModule({
  names: ['k6/websockets', 'k6/experimental/websockets'],
  metrics: WS_METRICS,
  sending: ['WebSocket'],
  exchanges: { ws_sessions: httpAnswered },
  code: async () => (await import('./websockets.js')).websocketsModule as ModuleCode,
});
