// `k6/experimental/streams` (/javascript-api/k6-experimental/streams/): "an implementation of the Streams API
// specification … support for defining and consuming readable streams". Node's WHATWG streams are that specification.
import { ByteLengthQueuingStrategy, CountQueuingStrategy, ReadableStream, ReadableStreamDefaultReader } from 'node:stream/web';

export function streamsModule() {
  return { ReadableStream, ReadableStreamDefaultReader, CountQueuingStrategy, ByteLengthQueuingStrategy };
}
