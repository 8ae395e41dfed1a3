// k6's built-in metrics, once (/using-k6/metrics/reference/), written from k6's documentation. The built-in engine
// declares each module's group before it emits, and its main thread declares them all before it checks thresholds; the
// SLO check (src/load/slos.ts) reads them to refuse a profile SLO on a metric no scenario emits. Imports nothing.

/** k6's four metric types (/using-k6/metrics/). */
export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
/** What a metric's values are: plain numbers, milliseconds, or bytes. */
export type MetricContains = 'default' | 'time' | 'data';

/** Declares a metric; declaring one twice with the same type is harmless, with another type an error. */
export interface MetricDecl {
  readonly name: string;
  readonly type: MetricType;
  readonly contains: MetricContains;
}

const trends = (names: readonly string[]): MetricDecl[] => names.map((name) => ({ name, type: 'trend', contains: 'time' }));

/** The metrics the engine itself emits, declared in every sink before any VU runs. */
export const CORE_METRICS: readonly MetricDecl[] = [
  { name: 'iterations', type: 'counter', contains: 'default' },
  { name: 'iteration_duration', type: 'trend', contains: 'time' },
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
  { name: 'vus', type: 'gauge', contains: 'default' },
  { name: 'vus_max', type: 'gauge', contains: 'default' },
  { name: 'checks', type: 'rate', contains: 'default' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
];

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

/** What k6/websockets emits. */
export const WS_METRICS: readonly MetricDecl[] = [
  { name: 'ws_sessions', type: 'counter', contains: 'default' },
  ...trends(['ws_connecting', 'ws_session_duration', 'ws_ping']),
  { name: 'ws_msgs_sent', type: 'counter', contains: 'default' },
  { name: 'ws_msgs_received', type: 'counter', contains: 'default' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
];

/** What k6/browser emits (/using-k6-browser/metrics/). */
export const BROWSER_METRICS: readonly MetricDecl[] = [
  { name: 'browser_http_req_duration', type: 'trend', contains: 'time' },
  { name: 'browser_http_req_failed', type: 'rate', contains: 'default' },
  { name: 'browser_data_received', type: 'counter', contains: 'data' },
  { name: 'browser_data_sent', type: 'counter', contains: 'data' },
  ...trends(['browser_web_vital_fcp', 'browser_web_vital_ttfb']),
  // Declared so thresholds on them are valid, as in k6; never emitted (src/engine/modules/browser/browser.ts says why).
  ...trends(['browser_web_vital_lcp', 'browser_web_vital_inp']),
  { name: 'browser_web_vital_cls', type: 'trend', contains: 'default' },
];

/**
 * What k6/net/grpc emits (/using-k6/metrics/reference/, gRPC): grpc_req_duration "Time to receive response from
 * remote host"; grpc_streams "Total number of started streams"; grpc_streams_msgs_sent and
 * grpc_streams_msgs_received "Total number of messages sent" and "received".
 */
export const GRPC_METRICS: readonly MetricDecl[] = [
  { name: 'grpc_req_duration', type: 'trend', contains: 'time' },
  { name: 'grpc_streams', type: 'counter', contains: 'default' },
  { name: 'grpc_streams_msgs_sent', type: 'counter', contains: 'default' },
  { name: 'grpc_streams_msgs_received', type: 'counter', contains: 'default' },
];

/** Every built-in metric, each name once. */
export const BUILTIN_METRICS: readonly MetricDecl[] = [
  ...new Map([...CORE_METRICS, ...HTTP_METRICS, ...WS_METRICS, ...BROWSER_METRICS, ...GRPC_METRICS].map((m) => [m.name, m])).values(),
];
