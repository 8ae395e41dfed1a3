// Bundles a k6 script (ESM, importing k6 modules) into the CommonJS text the engine runs once per VU (script.ts), its
// blocking k6 calls awaited (blocking.ts). Runs in the main thread only: workers get the bundle's text.
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { BlockingRefusal, rewriteBlocking } from './blocking.js';
import { locator } from './script.js';
import { asyncBody } from './top-level-await.js';

/** A script made ready to run: its code, and the k6 calls in it that send (empty when it sends nothing). */
export interface Bundle {
  readonly code: string;
  readonly sends: readonly string[];
}

/**
 * Bundles `script` and everything it imports (k6 modules stay outside) into one CommonJS text, its blocking k6 calls
 * awaited (`blocking.ts`). k6 runs ES modules; the function form lets the engine run the same module many times in
 * one JavaScript context.
 */
export async function bundleScript(script: string): Promise<Bundle> {
  const code = await esbuildScript(script);
  try {
    const out = rewriteBlocking(code, locator(code));
    return { code: out.code, sends: out.sends };
  } catch (e) {
    if (e instanceof BlockingRefusal) throw new Error(`the script cannot run on the built-in engine: ${e.message}`);
    throw e;
  }
}

/** esbuild's refusal of a top-level await in CommonJS: the script is then bundled as an ES module (top-level-await.ts). */
const TOP_LEVEL_AWAIT = /Top-level await is currently not supported with the "cjs" output format/;

async function esbuildScript(script: string): Promise<string> {
  try {
    return await esbuildAs(script, 'cjs');
  } catch (e) {
    if (!(e instanceof BuildError) || !TOP_LEVEL_AWAIT.test(e.message)) throw e;
  }
  return asyncBody(await esbuildAs(script, 'esm'));
}

class BuildError extends Error {}

async function esbuildAs(script: string, format: 'cjs' | 'esm'): Promise<string> {
  const path = resolve(script);
  const out = await build({
    entryPoints: [path],
    bundle: true,
    write: false,
    format,
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
    throw new BuildError(`the script does not build: ${first?.text ?? String(e)}${where}`);
  });
  return out.outputFiles[0]?.text ?? '';
}
