// ConnectParams.reflect (https://grafana.com/docs/k6/latest/javascript-api/k6-net-grpc/client/client-connect/):
// "Whether to use the gRPC server reflection protocol when connecting." No proto is loaded: the service definitions
// come from the server's reflection, and a call is made with them. RUN: the x-run metadata the server counts by.
import { check } from 'k6';
import grpc from 'k6/net/grpc';

export const options = { iterations: 1 };

const client = new grpc.Client();

export default function () {
  client.connect(__ENV.GRPC_ADDR, { plaintext: true, reflect: true });
  const res = client.invoke('dialtone.corpus.Echo/Say', { text: 'reflected' }, { metadata: { 'x-run': __ENV.RUN } });
  check(res, {
    'a method found by reflection answers OK': (r) => r.status === grpc.StatusOK,
    'with its message': (r) => r.message && r.message.text === 'hello reflected',
  });
  client.close();
}
