import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles one scenario into a single k6 script; its name was checked by the run's load plan (src/load/plan.ts).
 *
 * - k6 modules stay external: k6 provides them at run time (`k6`, `k6/http`, `k6/websockets`, …).
 * - Everything else the scenario imports (src/contract, src/load/vu, zod) is inlined, so k6 gets one file.
 * - platform 'neutral' + ESM: k6 runs ES modules natively and has no Node built-ins; a Node import
 *   in a scenario fails the build here rather than at run time.
 * - No minification: a k6 stack trace should point at readable code.
 */
export async function bundleScenario(root: string, name: string, outFile: string): Promise<string> {
  await build({
    entryPoints: [join(root, 'scenarios', `${name}.ts`)],
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['k6', 'k6/*'],
    sourcemap: 'inline',
    logLevel: 'error',
  });
  return outFile;
}
