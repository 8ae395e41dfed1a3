import { join } from 'node:path';
import { type BuildOptions, build, buildSync } from 'esbuild';

/**
 * How a scenario is bundled into a single k6 script:
 *
 * - k6 modules stay external: k6 provides them at run time (`k6`, `k6/http`, `k6/websockets`, …).
 * - Everything else the scenario imports (src/contract, src/load/vu, zod) is inlined, so k6 gets one file.
 * - platform 'neutral': k6 runs ES modules natively and has no Node built-ins; a Node import in a scenario fails the
 *   build here rather than at run time.
 * - No minification: a k6 stack trace should point at readable code.
 */
const SCENARIO_BUILD = {
  bundle: true,
  platform: 'neutral',
  target: 'es2022',
  mainFields: ['module', 'main'],
  external: ['k6', 'k6/*'],
  logLevel: 'error',
} as const satisfies BuildOptions;

/** A scenario's source file. */
const entryOf = (root: string, name: string) => join(root, 'scenarios', `${name}.ts`);

/** Bundles one scenario into a single k6 script (ESM); its name was checked by the run's load plan (src/load/plan.ts). */
export async function bundleScenario(root: string, name: string, outFile: string): Promise<string> {
  await build({ ...SCENARIO_BUILD, entryPoints: [entryOf(root, name)], outfile: outFile, format: 'esm', sourcemap: 'inline' });
  return outFile;
}

/**
 * One scenario bundled in memory as CommonJS, the form the built-in engine runs, whose `require` calls name the k6
 * modules it imports (src/load/scenario-modules.ts reads them). Synchronous: a profile's SLOs are checked before any
 * run, by code that does not wait.
 *
 * @example
 * scenarioBundle(ROOT, 'chat-turns').includes('require("k6/http")'); // true
 */
export function scenarioBundle(root: string, name: string): string {
  const out = buildSync({ ...SCENARIO_BUILD, entryPoints: [entryOf(root, name)], write: false, format: 'cjs' });
  return out.outputFiles[0]?.text ?? '';
}
