import { resolve } from 'node:path';
import type { EngineKind } from '../../core/engine-version.js';
import { UsageError } from '../../errors.js';
import { parseEnvironments } from '../../init/environments.js';
import { initFiles, nextSteps } from '../../init/plan.js';
import { checkProjectDir, describeOutcome, ensureIgnored, makeFolders, writeNew } from '../../init/write.js';
import { scenarioNames } from '../../load/scenarios.js';
import { parse } from '../args.js';
import { ROOT } from '../root.js';

export const usage = `dialtone init [--dir DIR] [--engine builtin|k6] [--environments NAMES]
  Sets up a project that depends on dialtone (DIR, default the current directory): a profile template per environment
  in dialtone/profiles/NAME.json (NAMES comma-separated, lower case, default staging,pre-release; credentials by
  environment variable), reports/ and .dialtone/ in .gitignore, and two GitHub Actions workflows that install dialtone
  with npm ci: .github/workflows/dialtone-gate.yml (conformance against the pre-release profile, JUnit published) and
  dialtone-nightly.yml (every scenario's nightly load with its run history and regression verdict, on the built-in
  engine, or with --engine k6 on k6 installed by grafana/setup-k6-action). Never overwrites a file: one that exists is
  skipped and named, and .gitignore only gets the lines it lacks. Exit 0, 2 for a usage error (no such DIR, a bad
  name), 3 when DIR cannot be written.`;

const ENGINES: readonly EngineKind[] = ['builtin', 'k6'];

/** Writes the profile templates, the .gitignore lines and the workflows, skipping every file that exists. */
export async function init(argv: string[]): Promise<number> {
  const { values } = parse('init', argv, {
    dir: { type: 'string' },
    engine: { type: 'string' },
    environments: { type: 'string' },
  });
  const engine = (values.engine ?? 'builtin') as EngineKind;
  if (!ENGINES.includes(engine)) throw new UsageError(`init: --engine must be builtin or k6, got '${values.engine}'`);
  const environments = parseEnvironments(values.environments);
  const dir = resolve(values.dir ?? '.');
  checkProjectDir(dir);
  const files = initFiles({ environments, engine, scenarios: scenarioNames(ROOT) });
  // Folders first: one that cannot be made stops the run before any file is written.
  makeFolders(
    dir,
    files.map((f) => f.path),
  );
  const outcomes = [...files.map((f) => writeNew(dir, f)), ensureIgnored(dir)];
  for (const o of outcomes) console.log(`dialtone init: ${describeOutcome(o)}`);
  for (const line of nextSteps(environments)) console.log(`dialtone init: ${line}`);
  return 0;
}
