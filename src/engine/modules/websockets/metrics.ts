// What k6/websockets and k6/ws emit (/using-k6/metrics/reference/, WebSockets): read by their descriptions and
// declared by their code.
import { type MetricDecl, trends } from '../../../core/metrics.js';

/** What k6/websockets and k6/ws emit. */
export const WS_METRICS: readonly MetricDecl[] = [
  { name: 'ws_sessions', type: 'counter', contains: 'default' },
  ...trends(['ws_connecting', 'ws_session_duration', 'ws_ping']),
  { name: 'ws_msgs_sent', type: 'counter', contains: 'default' },
  { name: 'ws_msgs_received', type: 'counter', contains: 'default' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
];
