import { conformance, usage as conformanceUsage } from './commands/conformance.js';
import { load, usage as loadUsage } from './commands/load.js';
import { start, usage as startUsage } from './commands/start.js';
import { target, usage as targetUsage } from './commands/target.js';
import { EnvironmentError, UsageError } from './errors.js';

type Command = { run: (argv: string[]) => Promise<number>; usage: string };

/** The commands, by name: scripts and CI depend on these names and their exit codes. */
const COMMANDS: Record<string, Command> = {
  target: { run: target, usage: targetUsage },
  conformance: { run: conformance, usage: conformanceUsage },
  load: { run: load, usage: loadUsage },
  start: { run: start, usage: startUsage },
};

function help(): string {
  return `dialtone: load and conformance harness\n\n${Object.values(COMMANDS)
    .map((c) => c.usage)
    .join('\n\n')}\n`;
}

/** Runs one command and turns every expected failure into a one-line message and an exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`dialtone: unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`dialtone: ${e.message}`);
      return 2;
    }
    if (e instanceof EnvironmentError) {
      console.error(`dialtone: ${e.message}`);
      return 3;
    }
    console.error(`dialtone: internal error: ${(e as Error).message?.split('\n')[0] ?? e} (set DIALTONE_DEBUG=1 for the stack)`);
    if (process.env.DIALTONE_DEBUG) console.error(e);
    return 1;
  }
}
