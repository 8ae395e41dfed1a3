import { resolve } from 'node:path';
import type { EngineKind } from '../../core/engine-version.js';
import { EXIT } from '../../errors.js';
import { checkDependency } from '../../init/dependency.js';
import { DEFAULT_ENVIRONMENTS, parseEnvironments } from '../../init/environments.js';
import { initFiles, nextSteps } from '../../init/plan.js';
import { checkProjectDir, describeOutcome, ensureIgnored, makeFolders, writeNew } from '../../init/write.js';
import { scenarioNames } from '../../load/scenarios.js';
import { defineCommand, parseCommand } from '../command.js';
import { ROOT } from '../root.js';

const ENGINES: readonly EngineKind[] = ['builtin', 'k6'];

export const spec = defineCommand({
  name: 'init',
  summary: 'sets up a project that depends on dialtone: profile templates, .gitignore lines, CI workflows',
  description: `Sets up a project that depends on dialtone: a profile template per environment in dialtone/profiles/NAME.json
  (credentials by environment variable), node_modules/, reports/ and .dialtone/ in .gitignore, and two GitHub Actions workflows that
  install dialtone with npm ci: .github/workflows/dialtone-gate.yml (conformance against the pre-release profile, JUnit
  published) and dialtone-nightly.yml (every scenario's nightly load with its run history and regression verdict, on the
  built-in engine, or with --engine k6 on k6 installed by grafana/setup-k6-action). When package.json installs dialtone
  from a tarball outside the project (which a CI checkout lacks), copies it to vendor/ and says how to point the
  dependency there. Never overwrites a file: one that exists is skipped and named, and .gitignore only gets the lines
  it lacks.`,
  flags: {
    dir: { type: 'string', value: 'DIR', help: 'the project folder.', defaultText: 'the current directory' },
    engine: { type: 'string', choices: ENGINES, help: 'the engine the nightly workflow runs the load on.', default: 'builtin' },
    environments: {
      type: 'string',
      value: 'NAMES',
      help: 'the environments to write a profile template for, comma-separated, lower case.',
      default: DEFAULT_ENVIRONMENTS.join(','),
    },
  },
  exits: {
    [EXIT.ok]: 'written (files that existed are named and left alone)',
    [EXIT.usage]: 'no such DIR, a bad name, or another usage error',
    [EXIT.environment]: 'DIR cannot be written',
  },
});

/** Writes the profile templates, the .gitignore lines and the workflows, skipping every file that exists. */
export async function init(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
  const engine = values.engine as EngineKind;
  const environments = parseEnvironments(values.environments);
  const dir = resolve(values.dir ?? '.');
  checkProjectDir(dir);
  const files = initFiles({ environments, engine, scenarios: scenarioNames(ROOT) });
  // Folders first: one that cannot be made stops the run before any file is written.
  makeFolders(
    dir,
    files.map((f) => f.path),
  );
  const dependency = checkDependency(dir);
  const outcomes = [...files.map((f) => writeNew(dir, f)), ensureIgnored(dir), ...(dependency.outcome ? [dependency.outcome] : [])];
  for (const o of outcomes) console.log(`dialtone init: ${describeOutcome(o)}`);
  for (const line of [...(dependency.next ? [dependency.next] : []), ...nextSteps(environments)]) console.log(`dialtone init: ${line}`);
  return 0;
}
