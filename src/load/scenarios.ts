import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

/** The files beside a scenario's k6 script that are not scenarios: its defaults and its declaration. */
const BESIDE = ['.defaults.ts', '.scenario.ts', '.d.ts'];

/** The scenarios: every scenarios/*.ts k6 script (not its defaults or its declaration), by name without the extension. */
export function scenarioNames(root: string): string[] {
  return readdirSync(join(root, 'scenarios'))
    .filter((f) => f.endsWith('.ts') && !BESIDE.some((end) => f.endsWith(end)))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Checks a scenario name; an unknown one is a usage error that lists the known ones. */
export function checkScenario(root: string, name: string): void {
  const known = scenarioNames(root);
  if (!known.includes(name)) throw new UsageError(`unknown scenario '${name}'; known scenarios: ${known.join(', ')}`);
}
