import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './run-cli.js';

const run = promisify(execFile);
const depcruise = join(ROOT, 'node_modules', '.bin', 'depcruise');

describe("ARCHITECTURE.md's import rules", () => {
  it('hold for the whole project', async () => {
    const r = await run(depcruise, ['src', 'conformance', 'scenarios', '--config', '.dependency-cruiser.cjs'], { cwd: ROOT });
    expect(r.stdout).toContain('no dependency violations found');
  }, 60_000);

  it('catch the profile importing the CLI, the engine the profile, core or nightly importing load, a cycle, a module description loading its code up front', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-layers-'));
    const dirs = ['src/profile', 'src/cli', 'src/reference-target/a', 'src/reference-target/b', 'src/engine', 'src/load', 'src/core', 'src/nightly'];
    for (const d of [...dirs, 'src/engine/modules/http', 'src/engine/modules/ws']) mkdirSync(join(dir, d), { recursive: true });
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    writeFileSync(join(dir, 'src/cli/usage.ts'), 'export const usage = 1;\n');
    writeFileSync(join(dir, 'src/profile/load.ts'), "import { usage } from '../cli/usage.js';\nexport const x = usage;\n");
    writeFileSync(join(dir, 'src/load/slos.ts'), "export const slo = 'p(95)<500';\n");
    // load stands above nightly: the run's finishing step hands nightly a record, never the other way round.
    writeFileSync(join(dir, 'src/nightly/verdict.ts'), "import { slo } from '../load/slos.js';\nexport const judged = [slo];\n");
    writeFileSync(
      join(dir, 'src/core/engine-version.ts'),
      "import { slo } from '../load/slos.js';\nexport const BUILTIN_ENGINE_VERSION = ['v0', slo].join(' ');\n",
    );
    writeFileSync(
      join(dir, 'src/engine/cli.ts'),
      "import { BUILTIN_ENGINE_VERSION } from '../core/engine-version.js';\nimport { x } from '../profile/load.js';\nexport const y = [x, BUILTIN_ENGINE_VERSION];\n",
    );
    writeFileSync(join(dir, 'src/reference-target/a/one.ts'), "import { two } from '../b/two.js';\nexport const one = () => two;\n");
    writeFileSync(join(dir, 'src/reference-target/b/two.ts'), "import { one } from '../a/one.js';\nexport const two = () => one;\n");
    // A description loads its module's code lazily (the ws one), never up front (the http one).
    writeFileSync(join(dir, 'src/engine/modules/http/http.ts'), 'export const httpModule = () => ({});\n');
    writeFileSync(
      join(dir, 'src/engine/modules/http/description.ts'),
      "import { httpModule } from './http.js';\nexport const code = async () => httpModule;\n",
    );
    writeFileSync(join(dir, 'src/engine/modules/ws/ws.ts'), 'export const wsModule = () => ({});\n');
    writeFileSync(join(dir, 'src/engine/modules/ws/description.ts'), "export const code = async () => (await import('./ws.js')).wsModule;\n");
    writeFileSync(
      join(dir, 'src/engine/modules/descriptions.ts'),
      "import { code as http } from './http/description.js';\nimport { code as ws } from './ws/description.js';\nexport const codes = [http, ws];\n",
    );
    writeFileSync(
      join(dir, 'src/load/modules.ts'),
      "import { codes } from '../engine/modules/descriptions.js';\n" +
        "import { wsModule } from '../engine/modules/ws/ws.js';\nexport const all = [codes, wsModule];\n",
    );
    const r = await run(depcruise, ['src', '--config', '.dependency-cruiser.cjs'], { cwd: dir }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain('error profile: src/profile/load.ts → src/cli/usage.ts');
    expect(r.stdout).toContain('error engine: src/engine/cli.ts → src/profile/load.ts');
    expect(r.stdout).toContain('error core: src/core/engine-version.ts → src/load/slos.ts');
    expect(r.stdout).toContain('error nightly: src/nightly/verdict.ts → src/load/slos.ts');
    expect(r.stdout).not.toContain('src/engine/cli.ts → src/core/engine-version.ts');
    expect(r.stdout).toContain('no-cycles-between-folders');
    expect(r.stdout).toContain('error module-descriptions-light: src/engine/modules/http/description.ts → src/engine/modules/http/http.ts');
    expect(r.stdout).not.toContain('src/engine/modules/ws/description.ts → src/engine/modules/ws/ws.ts');
    expect(r.stdout).toContain('error load: src/load/modules.ts → src/engine/modules/ws/ws.ts');
    expect(r.stdout).not.toContain('src/load/modules.ts → src/engine/modules/descriptions.ts');
  }, 60_000);
});
