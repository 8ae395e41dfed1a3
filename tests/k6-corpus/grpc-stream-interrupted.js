// A bidirectional stream the script never ends: the iteration holds while the stream is open (its handlers run as the
// server sends) until the run is interrupted (the test sends SIGINT once the reply is printed), the stream cancelled
// with it and no handler of the script run after. GRPC_ADDR: host:port; RUN: the x-run metadata the server counts by.
import grpc from 'k6/net/grpc';

export const options = { scenarios: { open: { executor: 'constant-vus', vus: 1, duration: '1m', gracefulStop: '0s' } } };

const client = new grpc.Client();
client.load(['protos'], 'echo.proto');

export default function () {
  client.connect(__ENV.GRPC_ADDR, { plaintext: true });
  const chat = new grpc.Stream(client, 'dialtone.corpus.Echo/Chat', { metadata: { 'x-run': __ENV.RUN } });
  chat.on('data', (reply) => console.log(`reply ${reply.text}`));
  chat.on('error', (e) => console.error(`handler ran after the interruption: ${e.message}`));
  chat.on('end', () => console.error('handler ran after the interruption: end'));
  chat.write({ text: 'open' });
}
