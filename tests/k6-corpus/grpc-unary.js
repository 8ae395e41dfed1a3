// k6/net/grpc's unary calls (https://grafana.com/docs/k6/latest/javascript-api/k6-net-grpc/): the proto loaded in the
// init context (and from a protoset), connect (plaintext, or TLS when GRPC_TLS is set), invoke with metadata and tags, a
// call the server refuses, a call past its own timeout, healthCheck, asyncInvoke, close. GRPC_ADDR: host:port; RUN: the x-run metadata the
// server counts by.
import { check } from 'k6';
import grpc from 'k6/net/grpc';

export const options = {
  vus: 2,
  iterations: 4,
  // Thresholds that always pass, for their sub-metrics in the summary export: the calls tagged by the script, and by status.
  thresholds: { 'grpc_req_duration{call:say}': ['max>=0'], 'grpc_req_duration{status:4}': ['max>=0'] },
};

const client = new grpc.Client();
client.load(['protos'], 'echo.proto');

// The same service from a protoset (a serialized FileDescriptorSet), made from echo.proto with protobufjs:
// FileDescriptorSet.encode(protobuf.loadSync('echo.proto').toDescriptor('proto3')) of protobufjs/ext/descriptor.
const fromSet = new grpc.Client();
fromSet.loadProtoset('protos/echo.protoset');

const metadata = { 'x-run': __ENV.RUN, authorization: 'Bearer corpus-token' };

// ConnectParams.tls.cacerts when CA_FILE names the server's CA; else the engine's trust (SSL_CERT_FILE).
const connectParams = { plaintext: !__ENV.GRPC_TLS, timeout: '10s', ...(__ENV.CA_FILE ? { tls: { cacerts: [open(__ENV.CA_FILE)] } } : {}) };

export default function () {
  client.connect(__ENV.GRPC_ADDR, connectParams);

  const res = client.invoke('dialtone.corpus.Echo/Say', { text: 'grpc', bigNumber: '9007199254740993' }, { metadata, tags: { call: 'say' } });
  check(res, {
    'status is OK': (r) => r && r.status === grpc.StatusOK,
    'the message is the answer': (r) => r.message.text === 'hello grpc' && r.message.bigNumber === '9007199254740993',
    'headers and trailers are the server metadata': (r) => r.headers['x-echo'][0] === 'grpc' && r.trailers['x-served-by'][0] === 'dialtone-corpus',
    'no error on OK': (r) => r.error === null,
  });

  // Client.healthCheck: the documentation's own checks.
  const health = client.healthCheck();
  check(health, {
    'server is healthy': (r) => r && r.status === grpc.StatusOK,
    'health status is serving': (r) => r && r.message.status === grpc.HealthCheckServing,
  });

  const refused = client.invoke('/dialtone.corpus.Echo/Fail', { text: 'pizza' }, { metadata });
  check(refused, {
    'a refused call has its status': (r) => r.status === grpc.StatusNotFound,
    'and its error, no message': (r) => r.error.message === 'no pizza here' && r.message === null,
  });

  const late = client.invoke('dialtone.corpus.Echo/Hang', { text: 'wait' }, { metadata, timeout: '300ms' });
  check(late, { 'a call past its timeout ends DeadlineExceeded': (r) => r.status === grpc.StatusDeadlineExceeded });

  fromSet.connect(__ENV.GRPC_ADDR, connectParams);
  const viaSet = fromSet.invoke('dialtone.corpus.Echo/Say', { text: 'protoset' }, { metadata });
  check(viaSet, { 'a protoset loads the service too': (r) => r.status === grpc.StatusOK && r.message.text === 'hello protoset' });
  fromSet.close();

  return client.asyncInvoke('dialtone.corpus.Echo/Say', { text: 'async' }, { metadata }).then((r) => {
    check(r, { 'asyncInvoke resolves to the response': (x) => x.status === grpc.StatusOK && x.message.text === 'hello async' });
    client.close();
  });
}
