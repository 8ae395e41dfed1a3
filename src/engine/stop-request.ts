// How a run is asked to stop from outside: k6's signals, plus the process that started the engine going away (dialtone
// killed with SIGKILL cannot forward anything, but the IPC channel it spawned the engine with closes).

/** The signals that stop a run the way Ctrl-C does. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How long an orphaned engine may take to write what ran before it exits anyway: nobody is left to wait for it. */
const ORPHAN_EXIT_MS = 10_000;

/**
 * Calls `stop` once, with the reason, on the first stop signal or when the parent's IPC channel closes; a second signal
 * exits at once with `code` (k6: "press Ctrl-C again to stop at once"). Returns what removes the handlers.
 *
 * @example
 * const done = onStopRequest((why) => stopAll(why), 105); … done();
 */
export function onStopRequest(stop: (reason: string) => void, code: number): () => void {
  let requests = 0;
  const request = (reason: string) => {
    if (++requests > 1) process.exit(code);
    stop(reason);
  };
  const handlers = STOP_SIGNALS.map((s) => [s, () => request(`received ${s}`)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  const orphaned = () => {
    if (requests === 0) request('the process that started the engine exited');
    setTimeout(() => process.exit(code), ORPHAN_EXIT_MS).unref();
  };
  // Only a process spawned with an IPC channel has one to lose; one already gone before this point counts too.
  const watched = process.channel !== undefined;
  if (watched) {
    process.on('disconnect', orphaned);
    process.channel?.unref();
    if (!process.connected) orphaned();
  }
  return () => {
    for (const [s, h] of handlers) process.off(s, h);
    if (watched) process.off('disconnect', orphaned);
  };
}
