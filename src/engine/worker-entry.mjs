// A worker thread's entry. Beside its transpiled sibling (dist/, scripts/build.mjs) it imports that. Beside the
// TypeScript source (a test's in-process run) it takes dist/'s copy when dist/ is fresh, as the bin scripts do, else the
// source through tsx, registered here: module hooks registered in the main thread do not reach workers.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./worker.js', import.meta.url))) await import(new URL('./worker.js', import.meta.url).href);
else await (await import('../../bin/build-state.mjs')).importSource('engine/worker');
