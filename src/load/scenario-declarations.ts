// Every scenario's declaration (scenarios/NAME.scenario.ts), found from the folder: a scenario is its k6 script, its
// defaults and its declaration, and nothing else names it. Loaded once, when this module is first imported.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../root.js';
import type { ScenarioDeclaration } from './config.js';
import { scenarioNames } from './scenarios.js';

/** Where this process finds a declaration: its transpiled copy in dist/ when this module runs from there, else the source. */
const FROM_DIST = import.meta.url.endsWith('.js');

/** A declaration's module file under `root`. */
export const declarationFile = (root: string, name: string): string =>
  FROM_DIST ? join(root, 'dist', 'scenarios', `${name}.scenario.js`) : join(root, 'scenarios', `${name}.scenario.ts`);

/** What a declaration must hold, checked when it is loaded: its module is plain JavaScript in dist/, past the type's reach. */
const REQUIRED: Readonly<Record<string, (d: Record<string, unknown>) => boolean>> = {
  defaults: (d) => typeof d.defaults === 'object' && d.defaults !== null && 'slos' in d.defaults && 'workloads' in d.defaults,
  'unit.unit': (d) => typeof (d.unit as { unit?: unknown } | undefined)?.unit === 'string',
  'unit.surface': (d) => typeof (d.unit as { surface?: unknown } | undefined)?.surface === 'string',
  figures: (d) => typeof d.figures === 'function',
  playsDialogues: (d) => typeof d.playsDialogues === 'boolean',
  playsLearned: (d) => typeof d.playsLearned === 'boolean',
};

/**
 * The declaration a module exports by default, checked: a missing field names the scenario and the field.
 *
 * @example
 * checkDeclaration('chat-turns', { defaults, unit: { unit: 'conversations' } }); // throws: … has no unit.surface
 */
export function checkDeclaration(name: string, value: unknown): ScenarioDeclaration {
  if (typeof value !== 'object' || value === null) throw new Error(`scenarios/${name}.scenario.ts: its default export is not a scenario declaration`);
  const missing = Object.entries(REQUIRED).flatMap(([field, ok]) => (ok(value as Record<string, unknown>) ? [] : [field]));
  if (missing.length) throw new Error(`scenarios/${name}.scenario.ts: the declaration has no ${missing.join(', ')}`);
  return value as ScenarioDeclaration;
}

/**
 * Every scenario under `root` by name, each from its declaration; a scenario without one is an error that says which
 * file to write.
 *
 * @example
 * (await loadDeclarations(ROOT))['chat-turns'].unit.unit; // 'conversations'
 */
export async function loadDeclarations(root: string): Promise<Readonly<Record<string, ScenarioDeclaration>>> {
  const loaded = await Promise.all(
    scenarioNames(root).map(async (name) => {
      const file = declarationFile(root, name);
      if (!existsSync(file)) throw new Error(`scenario '${name}' has no declaration: write scenarios/${name}.scenario.ts beside scenarios/${name}.ts`);
      const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
      return [name, checkDeclaration(name, module.default)] as const;
    }),
  );
  return Object.freeze(Object.fromEntries(loaded));
}

/** Every scenario of dialtone, by name. */
export const SCENARIOS: Readonly<Record<string, ScenarioDeclaration>> = await loadDeclarations(ROOT);

/**
 * A scenario's declaration; every scenario has one (loading refuses a scenario without).
 *
 * @example
 * declarationOf('chat-turns').playsDialogues; // true
 */
export function declarationOf(scenario: string): ScenarioDeclaration {
  const d = SCENARIOS[scenario];
  if (!d) throw new Error(`unknown scenario '${scenario}' (known: ${Object.keys(SCENARIOS).join(', ')})`);
  return d;
}
