// What k6/http emits (/using-k6/metrics/reference/, HTTP): read by its description and declared by its code.
import { type MetricDecl, trends } from '../../../core/metrics.js';

/** The HTTP timing phases, besides http_req_duration (the end-of-test summary hides them in compact mode). */
export const HTTP_PHASES = [
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
];

/** What k6/http emits. */
export const HTTP_METRICS: readonly MetricDecl[] = [
  { name: 'http_reqs', type: 'counter', contains: 'default' },
  ...trends(['http_req_duration', ...HTTP_PHASES]),
  { name: 'http_req_failed', type: 'rate', contains: 'default' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
];
