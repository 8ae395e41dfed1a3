// The k6 modules a scenario uses, found one way: from its bundle (esbuild, once per scenario in a process), by the
// engine's own reading of a bundle's imports, each described by the engine's module descriptions
// (src/engine/modules/NAME/description.ts). The SLO metrics, the k6 refusal, Chromium and the browser cap read these.
import type { MetricDecl } from '../core/metrics.js';
import { importsOf, moduleNamed, modulesOf } from '../engine/modules/descriptions.js';
import type { ModuleDescription } from '../engine/modules/module-description.js';
import { UsageError } from '../errors.js';
import { scenarioBundle } from './bundle.js';
import type { Engine } from './engine.js';

const imported = new Map<string, readonly string[]>();

/**
 * The k6 import names a scenario's bundle asks for.
 *
 * @example
 * scenarioImports(ROOT, 'messaging-sockets').includes('k6/websockets'); // true
 */
export function scenarioImports(root: string, scenario: string): readonly string[] {
  const key = `${root}\0${scenario}`;
  let names = imported.get(key);
  if (!names) {
    names = importsOf(scenarioBundle(root, scenario));
    imported.set(key, names);
  }
  return names;
}

/** The descriptions of the modules a scenario imports. */
export function scenarioModules(root: string, scenario: string): readonly ModuleDescription[] {
  return modulesOf(scenarioImports(root, scenario));
}

/** The built-in metrics of the modules a scenario imports (k6's core metrics not included). */
export function moduleMetricsOf(root: string, scenario: string): readonly MetricDecl[] {
  return scenarioModules(root, scenario).flatMap((m) => m.metrics);
}

/** Whether a scenario drives Chromium (it imports k6/browser). */
export function drivesChromium(root: string, scenario: string): boolean {
  return scenarioModules(root, scenario).some((m) => m.drivesChromium);
}

/** The modules of dialtone's own that a scenario imports, by import name. */
export function ownModulesOf(root: string, scenario: string): string[] {
  return scenarioImports(root, scenario).filter((name) => moduleNamed(name)?.own);
}

/** Why k6 cannot run a module of dialtone's own (`k6 has no WebRTC module`); undefined for a module k6 has. */
export function whyOwn(name: string): string | undefined {
  return moduleNamed(name)?.own;
}

/**
 * Refuses, before anything starts, a scenario that imports a module of dialtone's own on the user's k6.
 *
 * @example
 * refuseOnK6(resolveEngine(root, 'k6'), root, 'voice-calls'); // throws UsageError: … k6 has no WebRTC module …
 */
export function refuseOnK6(engine: Engine, root: string, scenario: string, instead = 'run it with --engine builtin'): void {
  if (engine.kind !== 'k6') return;
  const [own] = ownModulesOf(root, scenario);
  if (own) throw new UsageError(`${scenario} imports ${own}, which only the built-in engine provides (${whyOwn(own)}): ${instead}`);
}
