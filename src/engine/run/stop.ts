// How a run is asked to stop from outside: k6's signals, plus the process that started the engine going away (dialtone
// killed with SIGKILL cannot forward anything, but the IPC channel it spawned the engine with closes).
import { type RunContext, stopWorkers } from './context.js';
import { EXIT } from './exit-codes.js';
import type { EngineIo, StopEvent } from './io.js';

/** The signals that stop a run the way Ctrl-C does. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How long an orphaned engine may take to write what ran before it exits anyway: nobody is left to wait for it. */
const ORPHAN_EXIT_MS = 10_000;

/**
 * Calls `stop` once, with the reason, on the first stop signal or when the starting process is gone; a second signal
 * ends everything at once with `code` (k6: "press Ctrl-C again to stop at once"). Returns what removes the handlers.
 *
 * @example
 * const done = onStopRequest(io, (why) => stopAll(why), 105); … done();
 */
export function onStopRequest(io: Pick<EngineIo, 'signals' | 'exitNow'>, stop: (reason: string) => void, code: number): () => void {
  let requests = 0;
  const request = (reason: string) => {
    if (++requests > 1) io.exitNow?.(code);
    else stop(reason);
  };
  const orphaned = () => {
    if (requests === 0) request('the process that started the engine exited');
    setTimeout(() => io.exitNow?.(code), ORPHAN_EXIT_MS).unref();
  };
  const handlers: [StopEvent, () => void][] = [
    ...STOP_SIGNALS.map((s) => [s, () => request(`received ${s}`)] as [StopEvent, () => void]),
    ['disconnect', orphaned],
  ];
  for (const [s, h] of handlers) io.signals.on(s, h);
  return () => {
    for (const [s, h] of handlers) io.signals.off(s, h);
  };
}

/**
 * Stops the run at the first stop request: no new iterations, the running ones (setup() included) interrupted, then
 * teardown, the summary export and the outputs as at any end (k6's exit 105); a second request ends it at once.
 *
 * @example
 * const unwatch = watchStopRequests(run); … unwatch();
 */
export function watchStopRequests(run: RunContext): () => void {
  return onStopRequest(
    run.io,
    (reason) => {
      run.outcome.signal ??= reason;
      run.log.write('warn', `stopping the test run: ${reason}; press Ctrl-C again to stop at once`);
      run.inSetup?.interrupt();
      stopWorkers(run);
    },
    EXIT.externalAbort,
  );
}
