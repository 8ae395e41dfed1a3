// The module table of a run: the modules a script imports, by their descriptions (descriptions.ts), their code loaded
// once per run and made once per VU. A script importing a k6 module the engine does not provide fails before the run
// with the list of those it does.
import type { VuHost } from '../types.js';
import { IMPORT_NAMES, MODULES, moduleNamed } from './descriptions.js';
import type { ModuleCode, ModuleContext } from './module-description.js';

export type { ModuleContext } from './module-description.js';

/**
 * The module table for a script: its imports checked and their code loaded. Returns, per VU, a `require` that makes
 * each module once for that VU.
 */
export async function moduleTable(
  imports: readonly string[],
  ctx: ModuleContext = { scriptPath: '' },
): Promise<(vu: VuHost & { vuTags: Record<string, string> }) => (name: string) => unknown> {
  const table: Record<string, ModuleCode> = {};
  const add = async (name: string) => {
    const m = moduleNamed(name);
    if (!m) throw new Error(`the script imports '${name}', which the built-in engine does not provide (it provides ${IMPORT_NAMES.join(', ')})`);
    if (!table[name]) table[name] = await m.code();
  };
  for (const m of MODULES) if (m.always) for (const name of m.names) await add(name);
  for (const name of imports) await add(name);
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
