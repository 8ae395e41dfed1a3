// A bundled k6 script made runnable in this thread: the factory the engine calls once per VU (every VU gets its own
// instance of the script's module, so module-level state is per VU, as in k6, without a context or worker per VU), the
// files it opens, and its stack frames mapped back to the script's sources. Worker threads load this and not the
// bundler (loader.ts), whose parser and bundler each worker would otherwise load for nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { TraceMap } from '@jridgewell/trace-mapping';
import { anonymized } from './archive-paths.js';
import type { Locate } from './blocking.js';
import { ASYNC_BUNDLE } from './top-level-await.js';

/** The source-map reader, loaded when a position is first asked for: most runs never map one. */
const traceMapping = (() => {
  let mod: typeof import('@jridgewell/trace-mapping') | undefined;
  return () => {
    mod ??= createRequire(import.meta.url)('@jridgewell/trace-mapping') as typeof import('@jridgewell/trace-mapping');
    return mod;
  };
})();

/** What one VU's instance of the script exports. */
export interface ScriptExports {
  readonly options?: Record<string, unknown>;
  readonly default?: (data?: unknown) => unknown;
  readonly setup?: () => unknown;
  readonly teardown?: (data?: unknown) => unknown;
  readonly handleSummary?: (data: unknown) => unknown;
  readonly [name: string]: unknown;
}

/** The globals a script sees besides the standard ones (/using-k6/execution-context-variables/, init context). */
export interface ScriptGlobals {
  /** `require` of the bundle: the k6 modules, made for this VU. */
  readonly require: (name: string) => unknown;
  readonly __ENV: Record<string, string>;
  /** Holds `__VU` and `__ITER`, read as the script runs. */
  readonly __k6: { readonly __VU: number; readonly __ITER: number };
  readonly open: (path: string, mode?: string) => string | ArrayBuffer;
  readonly console: Console;
  readonly setTimeout: unknown;
  readonly clearTimeout: unknown;
  readonly setInterval: unknown;
  readonly clearInterval: unknown;
  /** This VU's Math: the realm's, with a Math.random of its own that k6's randomSeed can seed (vu.ts). */
  readonly Math: Math;
}

/**
 * One VU's instance of the script: its exports, and, for a script with top-level await, the promise of its init
 * context's end (until then the exports are not all there).
 */
export interface ScriptInstance {
  readonly exports: ScriptExports;
  readonly ready?: Promise<void>;
}

export type ScriptFactory = (globals: ScriptGlobals) => ScriptInstance;

/** The constructor of async functions: a bundle with top-level await runs as one. */
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as FunctionConstructor;

/** Lines the Function constructor and "use strict" put before the bundle's first line in a stack trace. */
const FUNCTION_PROLOGUE_LINES = 3;

const PARAMS = [
  'require',
  'module',
  'exports',
  '__ENV',
  '__k6',
  'open',
  'console',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'Math',
] as const;

/** Where a line and column of a bundle came from, as `file:line` relative to the working folder (its source map). */
export function locator(code: string): Locate {
  let map: TraceMap | undefined;
  return (line, column) => {
    map ??= traceMapOf(code);
    const at = map ? traceMapping().originalPositionFor(map, { line, column }) : undefined;
    if (!at?.source || at.line === null) return `bundle line ${line}`;
    // A remote module (remote-modules.ts): its URL (the source map's reader folds its '//').
    const remote = /^remote:(https?:)\/*(.*)$/.exec(at.source);
    if (remote) return `${remote[1]}//${remote[2]}:${at.line}`;
    const full = resolve(process.cwd(), at.source);
    const near = relative(process.cwd(), full);
    return `${near.startsWith('..') ? full : near}:${at.line}`;
  };
}

/** esbuild's inline source map, the bundle's last line. */
const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

function traceMapOf(code: string): TraceMap | undefined {
  const m = INLINE_MAP.exec(code);
  if (!m?.[1]) return undefined;
  return new (traceMapping().TraceMap)(Buffer.from(m[1], 'base64').toString('utf8'));
}

/** The scripts this thread compiled, by the URL their stack frames carry, with where their lines came from. */
const compiled = new Map<string, Locate>();

/** A stack frame's `url:line:column` in a compiled script. */
const FRAME = /(\/[^\s():]+):(\d+):(\d+)/g;

/** A frame's position in the script's sources (`file:line`), when it is in a compiled script. */
function frameSource(url: string, line: string, column: string): string | undefined {
  const locate = compiled.get(url);
  const n = Number(line) - FUNCTION_PROLOGUE_LINES;
  return locate && n >= 1 ? locate(n, Math.max(0, Number(column) - 1)) : undefined;
}

/**
 * A stack trace with the script's frames given as their files and lines in the script's sources, not the bundle's.
 *
 * @example
 * scriptStack('TypeError: x\n    at parse (/run/script.js:31:18)'); // 'TypeError: x\n    at parse (lib/parse.js:6)'
 */
export function scriptStack(stack: string): string {
  return compiled.size === 0 ? stack : stack.replace(FRAME, (all, url: string, l: string, c: string) => frameSource(url, l, c) ?? all);
}

/** Where an error was thrown in the script (its first frame there), as `file:line`; undefined when no frame is. */
export function scriptFrame(e: unknown): string | undefined {
  const stack = e instanceof Error ? e.stack : undefined;
  if (!stack) return undefined;
  for (const m of stack.matchAll(FRAME)) {
    const at = frameSource(m[1] as string, m[2] as string, m[3] as string);
    if (at) return at;
  }
  return undefined;
}

/**
 * The bundle as a function; each call runs its top level (the init context) afresh for one VU.
 *
 * @example
 * const make = compileScript((await bundleScript('/tmp/run/script.js')).code, '/tmp/run/script.js');
 * const { exports, ready } = make(globalsOfVu1); // ready: a script with top-level await
 */
export function compileScript(code: string, path: string): ScriptFactory {
  // The engine maps the script's stack frames itself (scriptStack): Node maps a Function's lines only when source maps
  // are on, and then shifted by the lines the Function constructor puts first.
  compiled.set(resolve(path), locator(code));
  // Both constructors put the same lines before the body (FUNCTION_PROLOGUE_LINES).
  const tla = code.startsWith(ASYNC_BUNDLE);
  const text = `"use strict";\n${code.replace(INLINE_MAP, '')}\n//# sourceURL=${resolve(path)}`;
  const body = new (tla ? AsyncFunction : Function)(...PARAMS, text) as (...args: unknown[]) => unknown;
  return (g) => {
    const module = { exports: {} as Record<string, unknown> };
    const ran = body(
      g.require,
      module,
      module.exports,
      g.__ENV,
      g.__k6,
      g.open,
      g.console,
      g.setTimeout,
      g.clearTimeout,
      g.setInterval,
      g.clearInterval,
      g.Math,
    );
    const exports = module.exports as ScriptExports;
    return tla ? { exports, ready: (ran as Promise<unknown>).then(() => undefined) } : { exports };
  };
}

/**
 * k6's `open(path, mode)` for a script: paths relative to the script's folder, read once per run and shared (a VU's
 * copy is the same string; an ArrayBuffer copy per call for 'b', as each VU keeps its own). `onOpen` hears of each file
 * the first time it is read (an archive holds them); `root` is an archive's extracted `file/` tree.
 */
export function opener(script: string, onOpen?: (path: string) => void, root?: string): (path: string, mode?: string) => string | ArrayBuffer {
  const base = dirname(resolve(script));
  const cache = new Map<string, { bytes: Buffer; text?: string }>();
  return (path, mode) => {
    // In a run of an archive, an absolute path is where the archive put that file (its user name made 'nobody').
    const full = root && isAbsolute(path) ? join(root, anonymized(path)) : resolve(base, path);
    let f = cache.get(full);
    if (!f) {
      try {
        f = { bytes: readFileSync(full) };
      } catch (e) {
        throw new Error(`open: cannot read '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      cache.set(full, f);
      onOpen?.(full);
    }
    if (mode === 'b') return f.bytes.buffer.slice(f.bytes.byteOffset, f.bytes.byteOffset + f.bytes.byteLength) as ArrayBuffer;
    f.text ??= f.bytes.toString('utf8');
    return f.text;
  };
}
