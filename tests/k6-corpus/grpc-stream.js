// k6/net/grpc's streams (https://grafana.com/docs/k6/latest/javascript-api/k6-net-grpc/stream/): a bidirectional
// stream written three messages then ended, and a server stream asked for two (its one request, no end()); each checked in its 'end' handler,
// the connection closed once both ended. GRPC_ADDR: host:port; RUN: the x-run metadata the server counts by.
import { check } from 'k6';
import grpc from 'k6/net/grpc';

export const options = { vus: 2, iterations: 4 };

const client = new grpc.Client();
client.load(['protos'], 'echo.proto');

const params = { metadata: { 'x-run': __ENV.RUN } };

export default function () {
  client.connect(__ENV.GRPC_ADDR, { plaintext: true });
  let open = 2;
  const done = () => {
    if (--open === 0) client.close();
  };

  const chat = new grpc.Stream(client, 'dialtone.corpus.Echo/Chat', params);
  const replies = [];
  chat.on('data', (reply, metadata) => replies.push(`${reply.seq}:${reply.text}:${typeof metadata.ts}`));
  chat.on('error', (e) => console.error(`chat failed: ${e.message}`));
  chat.on('end', () => {
    check(replies, { 'the chat echoes each message in order': (r) => r.join(',') === '1:A:number,2:B:number,3:C:number' });
    done();
  });
  for (const text of ['a', 'b', 'c']) chat.write({ text });
  chat.end();

  const counted = new grpc.Stream(client, 'dialtone.corpus.Echo/Count', params);
  let n = 0;
  counted.on('data', () => n++);
  counted.on('end', () => {
    check(n, { 'the server stream sends what was asked': (x) => x === 2 });
    done();
  });
  // A server stream takes one request: no end() needed (k6's grpc_server_streaming example calls none).
  counted.write({ n: 2 });
}
