// What a run reads from and writes to outside itself, passed in: the CLI (cli.ts) gives the process's, a test gives
// captured streams, its own variables, a clock and a signal source it fires itself.
import { resolve } from 'node:path';

/** Where text goes: process.stdout, or a test's capture. */
export interface TextSink {
  write(text: string | Uint8Array): void;
  readonly isTTY?: boolean;
}

/** The time a run reports: when it started, how long it has run (its timers still wait in real time). */
export interface Clock {
  now(): number;
}

/** What asks a run to stop from outside: k6's signals, and `disconnect` when the process that started it is gone. */
export type StopEvent = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'disconnect';

/** An EventEmitter-like source of stop requests: `process`, adapted by cli.ts, or a test's EventEmitter. */
export interface SignalSource {
  on(event: StopEvent, listener: () => void): unknown;
  off(event: StopEvent, listener: () => void): unknown;
}

/** A run's outside world. */
export interface EngineIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** The system's variables: __ENV's base, K6_* settings, SSL_CERT_FILE, DIALTONE_ENGINE_WORKERS. */
  readonly env: NodeJS.ProcessEnv;
  readonly clock: Clock;
  readonly signals: SignalSource;
  /** The folder the files a run writes are named from (--out, --summary-export, --console-output, handleSummary's). */
  readonly cwd?: string;
  /**
   * Ends everything at once with `code`: at a second stop request, and when the starting process is gone and the run
   * has not ended in time. The CLI exits the process; left out, the run only goes on stopping.
   */
  readonly exitNow?: (code: number) => void;
  /** The IPC channel to the starting process, when it opened one (the live dashboard's feed, run/live-feed.ts). */
  readonly send?: (message: unknown) => void;
}

/**
 * A file the run writes, named from io.cwd when there is one, else as given (from the process's working folder).
 *
 * @example
 * written({ ...io, cwd: '/tmp/run' }, 'summary.json'); // '/tmp/run/summary.json'
 */
export function written(io: Pick<EngineIo, 'cwd'>, path: string): string {
  return io.cwd === undefined ? path : resolve(io.cwd, path);
}

/** The real clock. */
export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

/**
 * `io` with every text its stdout and stderr get passed through `redact` (the secret values of --secret-source); bytes
 * (a handleSummary ArrayBuffer) pass as they are.
 */
export function redactedIo(io: EngineIo, redact: (text: string) => string): EngineIo {
  const through = (sink: TextSink): TextSink => ({
    write: (chunk) => sink.write(typeof chunk === 'string' ? redact(chunk) : chunk),
    ...(sink.isTTY === undefined ? {} : { isTTY: sink.isTTY }),
  });
  return { ...io, stdout: through(io.stdout), stderr: through(io.stderr) };
}
