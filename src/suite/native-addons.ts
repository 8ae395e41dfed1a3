import { createRequire } from 'node:module';

/** Native addons that case files load (the Opus codec of the werift voice client). */
const NATIVE_ADDONS = ['@evan/opus'] as const;

/**
 * Loads the native addons on this (the main) thread, before any vitest worker thread starts.
 *
 * Why: a worker thread that is the first to load an addon also unloads its library when it exits, while the addon's
 * thread-local destructors are still registered with the C library; they then run on unmapped code and the process
 * dies with SIGSEGV (seen in `__nptl_deallocate_tsd` with @evan/opus). Loaded here first, the library stays mapped for
 * the whole process, and every worker's load is a reference to it. An in-process reference target hid this: it loads
 * the codec on the main thread itself.
 */
export function pinNativeAddons(): void {
  const require = createRequire(import.meta.url);
  for (const name of NATIVE_ADDONS) require(name);
}
