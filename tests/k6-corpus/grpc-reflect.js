// ConnectParams.reflect (https://grafana.com/docs/k6/latest/javascript-api/k6-net-grpc/client/client-connect/):
// "Whether to use the gRPC server reflection protocol when connecting." The built-in engine refuses it in one line.
import grpc from 'k6/net/grpc';

export const options = { iterations: 1 };

const client = new grpc.Client();

export default function () {
  client.connect(__ENV.GRPC_ADDR, { plaintext: true, reflect: true });
}
