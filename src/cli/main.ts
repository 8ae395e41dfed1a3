import { EnvironmentError, EXIT, UsageError } from '../errors.js';
import type { CommandSpec } from './command.js';

type CommandModule = { spec: CommandSpec; run: (argv: string[]) => Promise<number> };

/**
 * The commands, by name: scripts and CI depend on these names and their exit codes. Each loads
 * only when called, so a usage error does not pay for importing vitest, fastify and esbuild.
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  start: async () => {
    const m = await import('./commands/start.js');
    return { spec: m.spec, run: m.start };
  },
  target: async () => {
    const m = await import('./commands/target.js');
    return { spec: m.spec, run: m.target };
  },
  conformance: async () => {
    const m = await import('./commands/conformance.js');
    return { spec: m.spec, run: m.conformance };
  },
  load: async () => {
    const m = await import('./commands/load.js');
    return { spec: m.spec, run: m.load };
  },
  capacity: async () => {
    const m = await import('./commands/capacity.js');
    return { spec: m.spec, run: m.capacity };
  },
  merge: async () => {
    const m = await import('./commands/merge.js');
    return { spec: m.spec, run: m.merge };
  },
  slos: async () => {
    const m = await import('./commands/slos.js');
    return { spec: m.spec, run: m.slos };
  },
  verdict: async () => {
    const m = await import('./commands/verdict.js');
    return { spec: m.spec, run: m.verdict };
  },
  traffic: async () => {
    const m = await import('./commands/traffic.js');
    return { spec: m.spec, run: m.traffic };
  },
  rules: async () => {
    const m = await import('./commands/rules.js');
    return { spec: m.spec, run: m.rules };
  },
  contract: async () => {
    const m = await import('./commands/contract.js');
    return { spec: m.spec, run: m.contract };
  },
  init: async () => {
    const m = await import('./commands/init.js');
    return { spec: m.spec, run: m.init };
  },
  'k6-operator': async () => {
    const m = await import('./commands/k6-operator.js');
    return { spec: m.spec, run: m.k6Operator };
  },
  'k8s-job': async () => {
    const m = await import('./commands/k8s-job.js');
    return { spec: m.spec, run: m.k8sJob };
  },
  licenses: async () => {
    const m = await import('./commands/licenses.js');
    return { spec: m.spec, run: (argv) => m.licenses(argv) };
  },
};

/** Every command's declaration, in the order `dialtone --help` lists them. */
export async function commandSpecs(): Promise<CommandSpec[]> {
  return Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).spec));
}

/** `dialtone --help`, or with `--markdown` docs/commands.md. */
async function help(rest: string[]): Promise<string> {
  const { overview, commandsMarkdown } = await import('./help.js');
  return rest.includes('--markdown') ? commandsMarkdown(await commandSpecs()) : overview(await commandSpecs());
}

/** `dialtone --version`: the version in package.json. */
async function version(): Promise<number> {
  const { DIALTONE_VERSION } = await import('../version.js');
  console.log(`dialtone ${DIALTONE_VERSION}`);
  return 0;
}

/** Runs one command and turns every expected failure into a one-line message and an exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') return version();
  const asked = name === 'help' && rest[0] !== undefined && !rest[0].startsWith('-') ? COMMANDS[rest[0]] : undefined;
  if (asked) {
    console.log((await import('./help.js')).commandHelp((await asked()).spec));
    return EXIT.ok;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await help(rest));
    return name ? EXIT.ok : EXIT.usage;
  }
  const loader = COMMANDS[name];
  if (!loader) {
    console.error(`dialtone: unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}`);
    return EXIT.usage;
  }
  try {
    const command = await loader();
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log((await import('./help.js')).commandHelp(command.spec));
      return 0;
    }
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dialtone: ${e.message}`);
      return EXIT.usage;
    }
    if (e instanceof EnvironmentError) {
      console.error(`dialtone: ${e.message}`);
      return EXIT.environment;
    }
    console.error(`dialtone: internal error: ${(e as Error).message?.split('\n')[0] ?? e} (set DIALTONE_DEBUG=1 for the stack)`);
    if (process.env.DIALTONE_DEBUG) console.error(e);
    return EXIT.internal;
  }
}
