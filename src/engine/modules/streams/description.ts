// k6/experimental/streams (/javascript-api/k6-experimental/streams/): ReadableStream.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/experimental/streams, as the engine provides it. */
export const description = describeModule({
  names: ['k6/experimental/streams'],
  code: async () => (await import('./streams.js')).streamsModule as ModuleCode,
});
