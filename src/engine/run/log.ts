// The run's log on its stderr, as k6's text logger writes it: `WARN[0003] message  key=value`, seconds since the start.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ConsoleLevel } from '../console.js';
import type { EngineIo } from './io.js';

export type LogLevel = 'warn' | 'error' | 'info' | 'debug';

/** Lines a second past which the same flood is cut and counted. */
const LINES_A_SECOND = 20;

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** A log line as k6's text logger writes one, `elapsedMs` after the run started. */
export function logLine(elapsedMs: number, level: LogLevel, message: string, fields?: Record<string, string>): string {
  const secs = pad(Math.max(0, Math.floor(elapsedMs / 1000)), 4);
  const tail = fields
    ? `  ${Object.entries(fields)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`
    : '';
  return `${level.toUpperCase().slice(0, 4)}[${secs}] ${message}${tail}\n`;
}

/**
 * The run's log: the engine's own lines (a flood of the same failure, thousands a second, cut to 20 lines a second and
 * the rest counted) and the VUs' console lines (never cut; console.debug only with --verbose, k6-docs#207), to the
 * --console-output file when there is one, else to stderr.
 *
 * @example
 * const log = new RunLog(io, io.clock.now(), { verbose: false });
 * log.log('warn', 'Insufficient VUs', { scenario: 'chat' });
 */
export class RunLog {
  readonly #io: EngineIo;
  readonly #started: number;
  readonly #verbose: boolean;
  readonly #redact: (text: string) => string;
  readonly #flood = { warned: 0, suppressed: 0, second: 0 };
  #consoleFile: number | undefined;

  constructor(io: EngineIo, started: number, options: { verbose?: boolean | undefined; redact?: (text: string) => string }) {
    this.#io = io;
    this.#redact = options.redact ?? ((t) => t);
    this.#started = started;
    this.#verbose = options.verbose === true;
  }

  /** Sends the VUs' console lines to `path` from now on; throws as openSync does. */
  consoleTo(path: string): void {
    this.#consoleFile = openSync(path, 'w');
  }

  /** One line of the engine's, unless this second's flood is past its limit. */
  log(level: Exclude<LogLevel, 'debug'>, message: string, fields?: Record<string, string>): void {
    const second = Math.floor(this.#io.clock.now() / 1000);
    const flood = this.#flood;
    if (second !== flood.second) {
      if (flood.suppressed > 0) this.write('warn', `${flood.suppressed} more log lines in the last second were left out`);
      flood.second = second;
      flood.warned = 0;
      flood.suppressed = 0;
    }
    if (++flood.warned > LINES_A_SECOND) {
      flood.suppressed++;
      return;
    }
    this.write(level, message, fields);
  }

  /** One line, never cut. */
  write(level: LogLevel, message: string, fields?: Record<string, string>): void {
    this.#io.stderr.write(logLine(this.#io.clock.now() - this.#started, level, message, fields));
  }

  /** A VU's console.* line. */
  console(level: ConsoleLevel, line: string): void {
    if (level === 'debug' && !this.#verbose) return;
    const text = logLine(this.#io.clock.now() - this.#started, level, line, { source: 'console' });
    if (this.#consoleFile === undefined) this.#io.stderr.write(text);
    else writeSync(this.#consoleFile, this.#redact(text));
  }

  /** Closes the --console-output file, if one is open. */
  close(): void {
    if (this.#consoleFile !== undefined) closeSync(this.#consoleFile);
    this.#consoleFile = undefined;
  }

  /** The line that ends a run, and its code. */
  fatal(code: number, message: string): number {
    this.write('error', message);
    return code;
  }
}
