// Every k6 module the built-in engine provides, by its description (NAME/description.ts), and what is read from them
// all: a module by import name, the built-in metrics, the modules a bundle imports. Light: no module's code is loaded
// here, so dialtone's load side reads it too (ARCHITECTURE.md's layer table).
import { CORE_METRICS, type MetricDecl } from '../../core/metrics.js';
import { description as browser } from './browser/description.js';
import { description as crypto } from './crypto/description.js';
import { description as csv } from './csv/description.js';
import { description as data } from './data/description.js';
import { description as encoding } from './encoding/description.js';
import { description as execution } from './execution/description.js';
import { description as fs } from './fs/description.js';
import { description as grpc } from './grpc/description.js';
import { description as html } from './html/description.js';
import { description as http } from './http/description.js';
import { description as k6 } from './k6/description.js';
import { description as metrics } from './metrics/description.js';
import type { ModuleDescription } from './module-description.js';
import { description as secrets } from './secrets/description.js';
import { description as streams } from './streams/description.js';
import { description as timers } from './timers/description.js';
import { description as voice } from './voice/description.js';
import { description as webcrypto } from './webcrypto/description.js';
import { description as websockets } from './websockets/description.js';
import { description as ws } from './ws/description.js';

/** The modules, each once. */
export const MODULES: readonly ModuleDescription[] = [
  k6,
  metrics,
  data,
  execution,
  timers,
  http,
  websockets,
  ws,
  grpc,
  browser,
  html,
  encoding,
  crypto,
  webcrypto,
  fs,
  csv,
  streams,
  secrets,
  voice,
];

const BY_NAME: ReadonlyMap<string, ModuleDescription> = new Map(MODULES.flatMap((m) => m.names.map((name) => [name, m] as const)));

/**
 * The module a script imports by `name`, aliases included; undefined for one the engine does not provide.
 *
 * @example
 * moduleNamed('k6/experimental/websockets')?.names[0]; // 'k6/websockets'
 */
export function moduleNamed(name: string): ModuleDescription | undefined {
  return BY_NAME.get(name);
}

/** Every import name the engine provides, aliases included. */
export const IMPORT_NAMES: readonly string[] = [...BY_NAME.keys()];

/** Every built-in metric: the engine's own and every module's, each name once (several modules emit data_sent). */
export const BUILTIN_METRICS: readonly MetricDecl[] = [...new Map([...CORE_METRICS, ...MODULES.flatMap((m) => m.metrics)].map((m) => [m.name, m])).values()];

/**
 * The k6 import names a bundle (CommonJS, as esbuild makes it) asks `require` for, with the modules its code implies
 * (`res.html()` needs k6/html).
 *
 * @example
 * importsOf('var http = require("k6/http"); http.get(u).html();'); // ['k6/http', 'k6/html']
 */
export function importsOf(code: string): string[] {
  const names = new Set([...code.matchAll(/\brequire\("(k6(?:\/[\w-]+)*)"\)/g)].map((m) => m[1] as string));
  for (const m of MODULES) if (m.impliedBy && names.has(m.impliedBy.module) && m.impliedBy.code.test(code)) names.add(m.names[0]);
  return [...names];
}

/**
 * The descriptions of the modules a script imports (aliases once each); names the engine does not provide are left out.
 *
 * @example
 * modulesOf(['k6', 'k6/http']).flatMap((m) => m.metrics).some((m) => m.name === 'http_reqs'); // true
 */
export function modulesOf(imports: readonly string[]): ModuleDescription[] {
  return [...new Set(imports.flatMap((name) => moduleNamed(name) ?? []))];
}
