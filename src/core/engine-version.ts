// Which engine ran a load: the built-in engine's version and the names the reports give an engine. It imports only
// dialtone's version, so the built-in engine (src/engine, which stands apart from the Node side of load) and the report
// writers can share it.
import { DIALTONE_VERSION } from '../version.js';

/** The version of dialtone's built-in engine, as `node bin/dialtone-engine.mjs version` prints it: dialtone's own. */
export const BUILTIN_ENGINE_VERSION = `v${DIALTONE_VERSION}`;

/** The two engines a load runs on: the user's own k6, or dialtone's built-in engine. */
export type EngineKind = 'k6' | 'builtin';

/** What a report and a history record say about the engine that ran: its kind and its version. */
export interface EngineId {
  readonly kind: EngineKind;
  /** For k6, the first line of `k6 version`; for the built-in engine, BUILTIN_ENGINE_VERSION. */
  readonly version: string;
}

/**
 * The engine as a page names it.
 *
 * @example
 * engineName({ kind: 'k6', version: 'k6 v2.2.0 (go1.25.1, linux/amd64)' }); // 'k6 v2.2.0'
 * engineName({ kind: 'builtin', version: 'v0.1.0' }); // 'dialtone built-in engine v0.1.0'
 */
export function engineName(e: EngineId): string {
  if (e.kind === 'builtin') return `dialtone built-in engine ${e.version}`;
  return /^k6 v\S+/.exec(e.version)?.[0] ?? `k6 (${e.version})`;
}
