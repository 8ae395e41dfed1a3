// The `console` a VU's script gets. k6 sends `console.*` through its logger, to stderr by default, each line tagged
// `source=console` (/using-k6/k6-options/reference/#console-output). In a worker thread the lines travel over the
// worker's message port with its samples and its end: Node's worker stdout is a stream of its own that a terminated
// worker drops.
import { inspect } from 'node:util';

export type ConsoleLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * One `console.*` argument as k6 prints it: strings as they are, objects JSON-like and traversed deeply, cycles as
 * `[Circular]`, functions as `[object Function]` (release notes v1.5.0).
 */
function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'function') return '[object Function]';
  if (v instanceof Error) return v.stack ?? String(v);
  if (v === null || typeof v !== 'object') return String(v);
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return inspect(v, { depth: null, breakLength: Number.POSITIVE_INFINITY });
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(v, (_k, x: unknown) => {
      if (typeof x === 'function') return '[object Function]';
      if (typeof x === 'bigint') return x.toString();
      if (x && typeof x === 'object') {
        if (seen.has(x)) return '[Circular]';
        seen.add(x);
      }
      return x;
    });
  } catch {
    return String(v);
  }
}

/**
 * A console whose every call becomes one line handed to `write`, arguments joined by spaces.
 *
 * @example
 * const c = vuConsole((level, line) => process.stderr.write(`${level} ${line}\n`));
 * c.log('hello', { a: 1 }); // info hello {"a":1}
 */
export function vuConsole(write: (level: ConsoleLevel, line: string) => void): Console {
  const at =
    (level: ConsoleLevel) =>
    (...args: unknown[]) =>
      write(level, args.map(text).join(' '));
  const c = {
    log: at('info'),
    info: at('info'),
    debug: at('debug'),
    trace: at('debug'),
    warn: at('warn'),
    error: at('error'),
  };
  // Anything else of Node's console (table, time, …) still works, as one line each through log.
  return new Proxy(c as unknown as Console, {
    get: (t, k) => (k in t ? (t as unknown as Record<string | symbol, unknown>)[k] : typeof k === 'string' && k in console ? c.log : undefined),
  });
}
