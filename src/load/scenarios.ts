import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

/** The scenarios: every scenarios/*.ts file but their defaults (NAME.defaults.ts), by name without the extension. */
export function scenarioNames(root: string): string[] {
  return readdirSync(join(root, 'scenarios'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.defaults.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Checks a scenario name; an unknown one is a usage error that lists the known ones. */
export function checkScenario(root: string, name: string): void {
  const known = scenarioNames(root);
  if (!known.includes(name)) throw new UsageError(`unknown scenario '${name}'; known scenarios: ${known.join(', ')}`);
}
