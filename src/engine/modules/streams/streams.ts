// `k6/experimental/streams` (/javascript-api/k6-experimental/streams/): "an implementation of the Streams API
// specification … support for defining and consuming readable streams", and since k6 1.x writable ones too (its
// writable-streams.js example imports WritableStream). Node's WHATWG streams are that specification.
import {
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  ReadableStream,
  ReadableStreamDefaultReader,
  WritableStream,
  WritableStreamDefaultWriter,
} from 'node:stream/web';

export function streamsModule() {
  return { ReadableStream, ReadableStreamDefaultReader, WritableStream, WritableStreamDefaultWriter, CountQueuingStrategy, ByteLengthQueuingStrategy };
}
