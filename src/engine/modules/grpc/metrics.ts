// What k6/net/grpc emits: read by its description and declared by its code.
import type { MetricDecl } from '../../../core/metrics.js';

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
