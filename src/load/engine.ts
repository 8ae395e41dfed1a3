// Which program runs a load: the user's own k6 when they installed one, else dialtone's built-in engine. Both take the
// same command line (a subset of k6's) and write the same output files, so every caller spawns
// `engine.command [...engine.args, 'run', …]` and reads the summary export and the JSON output the same way.
import { join } from 'node:path';
import { BUILTIN_ENGINE_VERSION, type EngineId, type EngineKind } from '../core/engine-version.js';
import { EnvironmentError, UsageError } from '../errors.js';
import { findK6, K6_VERSION, k6Candidates } from './k6.js';

export { BUILTIN_ENGINE_VERSION, type EngineId, type EngineKind, engineName } from '../core/engine-version.js';

/** What `--engine` and DIALTONE_ENGINE take: `auto` is the user's k6 when found, else the built-in engine. */
export type EngineChoice = 'auto' | 'k6' | 'builtin';
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'k6', 'builtin'];

/** A resolved engine: spawn it as `spawn(engine.command, [...engine.args, 'run', …])`. */
export interface Engine {
  readonly kind: EngineKind;
  /** For k6, the first line of `k6 version`; for the built-in engine, BUILTIN_ENGINE_VERSION. */
  readonly version: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** The --engine flag's usage lines, shared by load, capacity and conformance --under-load. */
export const ENGINE_USAGE = `  --engine auto|k6|builtin picks the engine (default: DIALTONE_ENGINE, else auto): auto is the user's k6 when one is
  installed (DIALTONE_K6, else k6 on PATH; a v2 not older than ${K6_VERSION}), else dialtone's built-in engine; the report names it.`;

/** Where k6 comes from, for the one line that says it is missing. */
export const K6_INSTALL_HINT = `install k6 ${K6_VERSION} or newer through k6's own channels (https://grafana.com/docs/k6/latest/set-up/install-k6/), or use --engine builtin`;

/**
 * Reads an engine choice; anything else is a one-line usage error naming where it came from.
 *
 * @example
 * engineChoice('builtin', '--engine'); // 'builtin'
 * engineChoice('go', 'DIALTONE_ENGINE'); // throws UsageError: DIALTONE_ENGINE must be auto, k6 or builtin, got 'go'
 */
export function engineChoice(v: string, from = '--engine'): EngineChoice {
  if ((ENGINE_CHOICES as readonly string[]).includes(v)) return v as EngineChoice;
  throw new UsageError(`${from} must be auto, k6 or builtin, got '${v}'`);
}

/** The built-in engine: bin/dialtone-engine.mjs under this Node. */
export function builtinEngine(root: string): Engine {
  return { kind: 'builtin', version: BUILTIN_ENGINE_VERSION, command: process.execPath, args: [join(root, 'bin', 'dialtone-engine.mjs')] };
}

/**
 * The engine a run uses. `choice` (the --engine flag) beats DIALTONE_ENGINE, which beats `auto`: the user's k6
 * (DIALTONE_K6, then k6 on PATH, a v2 not older than K6_VERSION) when there is one, else the built-in engine. `k6`
 * without a suitable k6 is an EnvironmentError (exit 3) saying how to install one.
 *
 * @example
 * const engine = resolveEngine(ROOT, 'auto');
 * spawn(engine.command, [...engine.args, 'run', '--summary-export', 'summary.json', 'script.js']);
 */
export function resolveEngine(root: string, choice?: EngineChoice, env: NodeJS.ProcessEnv = process.env): Engine {
  const chosen = choice ?? (env.DIALTONE_ENGINE ? engineChoice(env.DIALTONE_ENGINE, 'DIALTONE_ENGINE') : 'auto');
  if (chosen === 'builtin') return builtinEngine(root);
  const k6 = findK6(env);
  if (k6) return { kind: 'k6', version: k6.version, command: k6.path, args: [] };
  if (chosen === 'auto') return builtinEngine(root);
  const refused = k6Candidates(env).map((c) => `${c.path} is ${c.version ?? 'not a working k6'}`);
  throw new EnvironmentError(
    `--engine k6: no k6 ${K6_VERSION} or newer found (DIALTONE_K6, then k6 on PATH${refused.length ? `; ${refused.join(', ')}` : ''}): ${K6_INSTALL_HINT}`,
  );
}

/** The engine as reports and history records name it. */
export const engineId = (e: Engine): EngineId => ({ kind: e.kind, version: e.version });

/** The outputs the built-in engine writes, as k6 does; the others are k6's own. */
const BUILTIN_OUTPUTS = ['json', 'csv', 'experimental-prometheus-rw', 'influxdb', 'opentelemetry', 'experimental-opentelemetry'];

/**
 * The engine of a load run: the one given (resolved once for all segments), else the one its choice (or
 * DIALTONE_ENGINE, or auto) resolves to. A k6 output the built-in engine does not write (--out cloud) is a usage
 * error before anything starts.
 *
 * @example
 * engineOfRun({ root, engine: 'builtin', extras: { outs: ['json=a.json'] } }).kind; // 'builtin'
 */
export function engineOfRun(asked: {
  root: string;
  engine?: Engine | EngineChoice | undefined;
  extras?: { outs?: readonly string[] | undefined } | undefined;
}): Engine {
  const engine = typeof asked.engine === 'object' ? asked.engine : resolveEngine(asked.root, asked.engine);
  const other = engine.kind === 'builtin' ? asked.extras?.outs?.find((out) => !BUILTIN_OUTPUTS.includes(out.split('=')[0] ?? '')) : undefined;
  if (other)
    throw new UsageError(`load: --out '${other}' is a k6 output the built-in engine does not write (it writes ${BUILTIN_OUTPUTS.join(', ')}): use --engine k6`);
  return engine;
}
