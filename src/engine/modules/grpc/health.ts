// The gRPC Health Checking protocol (grpc.io/docs/guides/health-checking): its messages and its one unary method,
// written out once for k6/net/grpc's healthCheck() and for the servers that answer it here.
import type * as protoLoader from '@grpc/proto-loader';

/** grpc.health.v1.Health/Check. */
export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

export const HEALTH_PROTO: Parameters<typeof protoLoader.fromJSON>[0] = {
  nested: {
    grpc: {
      nested: {
        health: {
          nested: {
            v1: {
              nested: {
                HealthCheckRequest: { fields: { service: { type: 'string', id: 1 } } },
                HealthCheckResponse: {
                  fields: { status: { type: 'ServingStatus', id: 1 } },
                  nested: { ServingStatus: { values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } } },
                },
                Health: { methods: { Check: { requestType: 'HealthCheckRequest', responseType: 'HealthCheckResponse', comment: '' } } },
              },
            },
          },
        },
      },
    },
  },
};
