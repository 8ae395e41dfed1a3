// k6/net/grpc (/javascript-api/k6-net-grpc/): a Client's connect, invoke and healthCheck block the VU in k6.
import { describeModule, type ModuleCode } from '../module-description.js';
import { GRPC_METRICS } from './metrics.js';

/** k6/net/grpc, as the engine provides it. */
export const description = describeModule({
  names: ['k6/net/grpc'],
  metrics: GRPC_METRICS,
  blockingMethods: { Client: ['connect', 'invoke', 'healthCheck'] },
  sending: ['Client'],
  exchanges: {
    // A status is the call's code, "0" being OK; 14 (Unavailable) is what grpc-js gives when no connection carried the call.
    grpc_req_duration: (status) => status !== undefined && status !== '14',
    // A message the server sent on a stream is its answer, whether or not the stream ended before the run did.
    grpc_streams_msgs_received: () => true,
  },
  code: async () => (await import('./grpc.js')).grpcModule as ModuleCode,
});
