import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tests/run-cli.js';
import { bundleScenario } from './bundle.js';
import { scenarioNames } from './scenarios.js';

// zod in a k6 bundle makes every VU build all of it at start (about 750 KB of code a VU): scenarios take plain values
// from the src/contract/*/wire.ts modules. zod's error class is in any bundle that carries zod.
const ZOD_MARKER = 'ZodError';
const out = mkdtempSync(join(tmpdir(), 'dialtone-bundle-'));

describe('scenario bundles', () => {
  it('show zod in the bundle of a module that uses it, so the check below can fail', async () => {
    const { build } = await import('esbuild');
    const r = await build({
      entryPoints: [join(ROOT, 'src/contract/chat/shapes.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
    });
    expect(r.outputFiles[0]?.text).toContain(ZOD_MARKER);
  });

  for (const name of scenarioNames(ROOT)) {
    it(`carry no zod into k6 for ${name}`, async () => {
      const file = await bundleScenario(ROOT, name, join(out, `${name}.js`));
      expect(readFileSync(file, 'utf8')).not.toContain(ZOD_MARKER);
    });
  }
});
