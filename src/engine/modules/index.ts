// The k6 modules the built-in engine provides, by import name: one row each. A script importing any other k6 module
// fails before the run with the list of these.
import type { SecretSources } from '../secrets.js';
import type { VuHost } from '../types.js';
import { dataModule } from './data/data.js';
import { executionModule } from './execution/execution.js';
import { k6Module } from './k6/k6.js';
import { metricsModule } from './metrics/metrics.js';
import { timersModule } from './timers/timers.js';

/** What a module may need of the run beside its VU: the script's path (k6/experimental/fs resolves from its folder). */
export interface ModuleContext {
  readonly scriptPath: string;
  /** The run's secret sources (k6/secrets); none when left out. */
  readonly secrets?: SecretSources | undefined;
}

type Factory = (vu: VuHost & { vuTags: Record<string, string> }, ctx: ModuleContext) => Record<string, unknown>;

/** Modules whose code is loaded only when a script imports them (k6/browser brings Playwright). */
const LAZY: Readonly<Record<string, () => Promise<Factory>>> = {
  'k6/http': async () => (await import('./http/http.js')).httpModule as Factory,
  'k6/websockets': async () => (await import('./websockets/websockets.js')).websocketsModule as Factory,
  'k6/experimental/websockets': async () => (await import('./websockets/websockets.js')).websocketsModule as Factory,
  'k6/experimental/fs': async () => (await import('./fs/fs.js')).fsModule as Factory,
  'k6/experimental/csv': async () => (await import('./csv/csv.js')).csvModule as Factory,
  'k6/experimental/streams': async () => (await import('./streams/streams.js')).streamsModule as Factory,
  'k6/secrets': async () => (await import('./secrets/secrets.js')).secretsModule as Factory,
  'k6/ws': async () => (await import('./ws/ws.js')).wsModule as Factory,
  'k6/net/grpc': async () => (await import('./grpc/grpc.js')).grpcModule as Factory,
  'k6/browser': async () => (await import('./browser/browser.js')).browserModule as Factory,
  'k6/encoding': async () => (await import('./encoding/encoding.js')).encodingModule as Factory,
  'k6/crypto': async () => (await import('./crypto/crypto.js')).cryptoModule as Factory,
  'k6/html': async () => {
    const html = await import('./html/html.js');
    (await import('./http/http.js')).useHtmlParser(html.parseHTML);
    return html.htmlModule as Factory;
  },
  // dialtone's own: voice calls on werift, which k6 has no module for.
  'k6/x/dialtone-voice': async () => (await import('./voice/module.js')).voiceModule as Factory,
};

const EAGER: Readonly<Record<string, Factory>> = {
  k6: k6Module,
  'k6/metrics': metricsModule,
  'k6/data': dataModule,
  'k6/execution': executionModule,
  'k6/timers': timersModule,
};

/** The import names a bundle asks `require` for. */
export function importsOf(code: string): string[] {
  const names = new Set([...code.matchAll(/\brequire\("(k6(?:\/[\w-]+)*)"\)/g)].map((m) => m[1] as string));
  // `res.html()` parses with k6/html: loaded only for a script that may call it.
  if (names.has('k6/http') && /\.html\(/.test(code)) names.add('k6/html');
  return [...names];
}

/**
 * The module table for a script: its imports checked and the lazy ones loaded. Returns, per VU, a `require` that makes
 * each module once for that VU.
 */
export async function moduleTable(
  imports: readonly string[],
  ctx: ModuleContext = { scriptPath: '' },
): Promise<(vu: VuHost & { vuTags: Record<string, string> }) => (name: string) => unknown> {
  const table: Record<string, Factory> = { ...EAGER };
  for (const name of imports) {
    if (table[name]) continue;
    const lazy = LAZY[name];
    if (!lazy)
      throw new Error(
        `the script imports '${name}', which the built-in engine does not provide (it provides ${[...Object.keys(EAGER), ...Object.keys(LAZY)].join(', ')})`,
      );
    table[name] = await lazy();
  }
  return (vu) => {
    const made = new Map<string, unknown>();
    return (name) => {
      let m = made.get(name);
      if (m) return m;
      const factory = table[name];
      if (!factory) throw new Error(`the script imports '${name}', which the built-in engine does not provide`);
      const exports = factory(vu, ctx);
      // Default and named imports both work: esbuild's CommonJS interop reads `default` when `__esModule` is set.
      m = { __esModule: true, default: 'default' in exports ? exports.default : exports, ...exports };
      made.set(name, m);
      return m;
    };
  };
}
