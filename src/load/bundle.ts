import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { UsageError } from '../cli/errors.js';

/** The scenarios: every scenarios/*.ts file, by name without the extension. */
export function scenarioNames(root: string): string[] {
  return readdirSync(join(root, 'scenarios'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Checks a scenario name; an unknown one is a usage error that lists the known ones. */
export function checkScenario(root: string, name: string): void {
  const known = scenarioNames(root);
  if (!known.includes(name)) throw new UsageError(`unknown scenario '${name}'; known scenarios: ${known.join(', ')}`);
}

/**
 * Bundles one scenario into a single k6 script.
 *
 * - k6 modules stay external: k6 provides them at run time (`k6`, `k6/http`, `k6/websockets`, …).
 * - Everything else the scenario imports (src/spec, src/load/vu, zod) is inlined, so k6 gets one file.
 * - platform 'neutral' + ESM: k6 runs ES modules natively and has no Node built-ins; a Node import
 *   in a scenario fails the build here rather than at run time.
 * - No minification: a k6 stack trace should point at readable code.
 */
export async function bundleScenario(root: string, name: string, outFile: string): Promise<string> {
  checkScenario(root, name);
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
