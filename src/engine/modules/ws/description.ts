// k6/ws (/javascript-api/k6-ws/): `ws.connect()` blocks the VU in k6 until the socket closes.
import { describeModule, httpAnswered, type ModuleCode } from '../module-description.js';
import { WS_METRICS } from '../websockets/metrics.js';

/** k6/ws, as the engine provides it. */
export const description = describeModule({
  names: ['k6/ws'],
  metrics: WS_METRICS,
  blocking: ['connect'],
  waitsFor: ['connect'],
  sending: ['connect'],
  exchanges: { ws_sessions: httpAnswered },
  code: async () => (await import('./ws.js')).wsModule as ModuleCode,
});
