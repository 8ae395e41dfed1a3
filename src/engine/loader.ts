// Turns a k6 script (ESM, importing k6 modules) into a factory the engine calls once per VU: every VU gets its own
// instance of the script's module, so module-level state is per VU, as in k6, without a context or worker per VU.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { build } from 'esbuild';

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
}

export type ScriptFactory = (globals: ScriptGlobals) => ScriptExports;

const PARAMS = ['require', 'module', 'exports', '__ENV', '__k6', 'open', 'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] as const;

/**
 * Bundles `script` and everything it imports (k6 modules stay outside) into one CommonJS text. k6 runs ES modules; the
 * function form lets the engine run the same module many times in one JavaScript context.
 */
export async function bundleScript(script: string): Promise<string> {
  const path = resolve(script);
  const out = await build({
    entryPoints: [path],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['k6', 'k6/*'],
    // __VU and __ITER change while a VU runs, so the bundle reads them from an object, not a copied value.
    define: { __VU: '__k6.__VU', __ITER: '__k6.__ITER' },
    sourcemap: 'inline',
    logLevel: 'silent',
  }).catch((e: { errors?: { text: string; location?: { file: string; line: number } }[] }) => {
    const first = e.errors?.[0];
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new Error(`the script does not build: ${first?.text ?? String(e)}${where}`);
  });
  return out.outputFiles[0]?.text ?? '';
}

/**
 * The bundle as a function; each call runs its top level (the init context) afresh for one VU.
 *
 * @example
 * const make = compileScript(await bundleScript('/tmp/run/script.js'), '/tmp/run/script.js');
 * const exportsOfVu1 = make(globalsOfVu1);
 */
export function compileScript(code: string, path: string): ScriptFactory {
  const body = new Function(...PARAMS, `"use strict";\n${code}\n//# sourceURL=${path}`) as (...args: unknown[]) => void;
  return (g) => {
    const module = { exports: {} as Record<string, unknown> };
    body(g.require, module, module.exports, g.__ENV, g.__k6, g.open, g.console, g.setTimeout, g.clearTimeout, g.setInterval, g.clearInterval);
    return module.exports as ScriptExports;
  };
}

/**
 * k6's `open(path, mode)` for a script: paths relative to the script's folder, read once per run and shared (a VU's
 * copy is the same string; an ArrayBuffer copy per call for 'b', as each VU keeps its own).
 */
export function opener(script: string): (path: string, mode?: string) => string | ArrayBuffer {
  const base = dirname(resolve(script));
  const cache = new Map<string, { bytes: Buffer; text?: string }>();
  return (path, mode) => {
    const full = resolve(base, path);
    let f = cache.get(full);
    if (!f) {
      try {
        f = { bytes: readFileSync(full) };
      } catch (e) {
        throw new Error(`open: cannot read '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      cache.set(full, f);
    }
    if (mode === 'b') return f.bytes.buffer.slice(f.bytes.byteOffset, f.bytes.byteOffset + f.bytes.byteLength) as ArrayBuffer;
    f.text ??= f.bytes.toString('utf8');
    return f.text;
  };
}
