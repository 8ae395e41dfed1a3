// Follows k6/experimental/streams (https://grafana.com/docs/k6/latest/javascript-api/k6-experimental/streams/): a
// ReadableStream whose pull() enqueues numbers until it closes, read through its default reader, each chunk posted.
import { ReadableStream } from 'k6/experimental/streams';
import http from 'k6/http';

export const options = { iterations: 2 };

export default async function () {
  let n = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (n < 3) controller.enqueue(n++);
      else controller.close();
    },
  });
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    http.get(`${__ENV.BASE_URL}/anything/chunk?n=${value}`);
  }
}
