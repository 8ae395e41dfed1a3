// A worker thread's entry. Beside its transpiled sibling (dist/, scripts/build.mjs) it imports that; beside the
// TypeScript source it registers tsx itself: module hooks registered in the main thread do not reach workers.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./worker.js', import.meta.url))) await import(new URL('./worker.js', import.meta.url).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker.ts');
}
