import { EnvironmentError, EXIT, UsageError } from '../errors.js';

type CommandModule = { usage: string; run: (argv: string[]) => Promise<number> };

/**
 * The commands, by name: scripts and CI depend on these names and their exit codes. Each loads
 * only when called, so a usage error does not pay for importing vitest, fastify and esbuild.
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  target: async () => {
    const m = await import('./commands/target.js');
    return { usage: m.usage, run: m.target };
  },
  conformance: async () => {
    const m = await import('./commands/conformance.js');
    return { usage: m.usage, run: m.conformance };
  },
  load: async () => {
    const m = await import('./commands/load.js');
    return { usage: m.usage, run: m.load };
  },
  contract: async () => {
    const m = await import('./commands/contract.js');
    return { usage: m.usage, run: m.contract };
  },
  rules: async () => {
    const m = await import('./commands/rules.js');
    return { usage: m.usage, run: m.rules };
  },
  slos: async () => {
    const m = await import('./commands/slos.js');
    return { usage: m.usage, run: m.slos };
  },
  capacity: async () => {
    const m = await import('./commands/capacity.js');
    return { usage: m.usage, run: m.capacity };
  },
  start: async () => {
    const m = await import('./commands/start.js');
    return { usage: m.usage, run: m.start };
  },
  merge: async () => {
    const m = await import('./commands/merge.js');
    return { usage: m.usage, run: m.merge };
  },
  'k6-operator': async () => {
    const m = await import('./commands/k6-operator.js');
    return { usage: m.usage, run: m.k6Operator };
  },
  'k8s-job': async () => {
    const m = await import('./commands/k8s-job.js');
    return { usage: m.usage, run: m.k8sJob };
  },
  init: async () => {
    const m = await import('./commands/init.js');
    return { usage: m.usage, run: m.init };
  },
  licenses: async () => {
    const m = await import('./commands/licenses.js');
    return { usage: m.usage, run: (argv) => m.licenses(argv) };
  },
  traffic: async () => {
    const m = await import('./commands/traffic.js');
    return { usage: m.usage, run: m.traffic };
  },
  verdict: async () => {
    const m = await import('./commands/verdict.js');
    return { usage: m.usage, run: m.verdict };
  },
};

async function help(): Promise<string> {
  const usages = await Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).usage));
  return `dialtone: load and conformance harness\n\n${usages.join('\n\n')}\n`;
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
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await help());
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
      console.log(command.usage);
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
