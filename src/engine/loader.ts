// Bundles a k6 script (ESM, importing k6 modules) into the CommonJS text the engine runs once per VU (script.ts), its
// blocking k6 calls awaited (blocking.ts). Runs in the main thread only: workers get the bundle's text.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { BlockingRefusal, rewriteBlocking } from './blocking.js';
import { type FetchedModules, type ModuleSource, networkThenCache, REMOTE_REFUSAL, remoteModules } from './remote-modules.js';
import { locator } from './script.js';
import { asyncBody } from './top-level-await.js';

/** A script made ready to run: its code, and the k6 calls in it that send (empty when it sends nothing). */
export interface Bundle {
  readonly code: string;
  readonly sends: readonly string[];
  /** The local files the bundle holds (absolute paths), the script first. */
  readonly files: readonly string[];
  /** The remote modules it holds, by the URL they were imported by. */
  readonly remote: FetchedModules;
}

/** Where a bundle's remote modules come from: by default the network, then the module cache (remote-modules.ts). */
export interface BundleOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly modules?: ModuleSource;
}

/**
 * Bundles `script` and everything it imports (k6 modules stay outside) into one CommonJS text, its blocking k6 calls
 * awaited (`blocking.ts`). k6 runs ES modules; the function form lets the engine run the same module many times in
 * one JavaScript context.
 */
export async function bundleScript(script: string, options: BundleOptions = {}): Promise<Bundle> {
  const remote: FetchedModules = new Map();
  const modules = options.modules ?? networkThenCache(options.env ?? process.env);
  const plugin = remoteModules(modules, remote);
  const { code, files } = await esbuildScript(script, plugin).finally(() => modules.close?.());
  try {
    const out = rewriteBlocking(code, locator(code));
    return { code: out.code, sends: out.sends, files, remote };
  } catch (e) {
    if (e instanceof BlockingRefusal) throw new Error(`the script cannot run on the built-in engine: ${e.message}`);
    throw e;
  }
}

/** esbuild's refusal of a top-level await in CommonJS: the script is then bundled as an ES module (top-level-await.ts). */
const TOP_LEVEL_AWAIT = /Top-level await is currently not supported with the "cjs" output format/;

async function esbuildScript(script: string, plugin: Plugin): Promise<Built> {
  try {
    return await esbuildAs(script, 'cjs', plugin);
  } catch (e) {
    if (!(e instanceof BuildError) || !TOP_LEVEL_AWAIT.test(e.message)) throw e;
  }
  const esm = await esbuildAs(script, 'esm', plugin);
  return { code: asyncBody(esm.code), files: esm.files };
}

interface Built {
  readonly code: string;
  readonly files: readonly string[];
}

class BuildError extends Error {}

async function esbuildAs(script: string, format: 'cjs' | 'esm', plugin: Plugin): Promise<Built> {
  const path = resolve(script);
  if (!existsSync(path)) throw new BuildError(`the script ${script} does not exist`);
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
    plugins: [plugin],
    metafile: true,
  }).catch((e: { errors?: { text: string; detail?: unknown; location?: { file: string; line: number } }[] }) => {
    const first = e.errors?.[0];
    // A remote module neither network nor cache has: its own line says what to do.
    if (first?.detail === REMOTE_REFUSAL) throw new BuildError(first.text);
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new BuildError(`the script does not build: ${first?.text ?? String(e)}${where}`);
  });
  // The metafile names inputs relative to the working folder; remote modules are in a namespace of their own.
  const files = Object.keys(out.metafile?.inputs ?? {})
    .filter((f) => !f.startsWith('remote:'))
    .map((f) => resolve(f));
  return { code: out.outputFiles[0]?.text ?? '', files: [path, ...files.filter((f) => f !== path)] };
}
