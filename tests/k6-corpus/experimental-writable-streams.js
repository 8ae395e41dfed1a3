// Follows k6/experimental/streams' WritableStream, as k6's writable-streams example uses it: a writer awaits
// `writer.ready` before each write (backpressure), and the sink posts each chunk.
import { WritableStream } from 'k6/experimental/streams';
import http from 'k6/http';

export const options = { iterations: 1 };

export default async function () {
  const stream = new WritableStream(
    {
      async write(chunk) {
        await http.asyncRequest('POST', `${__ENV.BASE_URL}/anything/written`, chunk);
      },
    },
    { highWaterMark: 1 },
  );
  const writer = stream.getWriter();
  const writes = [];
  for (let i = 1; i <= 3; i++) {
    await writer.ready;
    writes.push(writer.write(`chunk ${i}`));
  }
  await Promise.all(writes);
  await writer.close();
}
