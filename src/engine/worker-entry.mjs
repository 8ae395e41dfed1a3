// A worker thread's entry: module hooks registered in the main thread do not reach workers, so it registers tsx itself.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
