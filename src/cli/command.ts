// One declaration per command: its flags, their help, its exit codes and the names it accepts. The parser, `--help`
// and docs/commands.md all read it, so what a command takes and what it says it takes cannot drift apart.
import { EXIT, UsageError } from '../errors.js';
import { parse } from './args.js';

/** One flag: how node:util reads it and what help and docs/commands.md say of it. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** Repeatable: every occurrence is kept, in order. */
  readonly multiple?: boolean;
  /** The value's placeholder in help (`N`, `DIR`, `SCENARIO@RATE`); string flags only. */
  readonly value?: string;
  /** The only values the flag takes: help shows them, and any other is refused before the command runs. */
  readonly choices?: readonly string[];
  /** What the flag does, one or a few sentences. */
  readonly help: string;
  /** The value used when the flag is absent, as help shows it. */
  readonly default?: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** A command's declaration. */
export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  /** The word after `dialtone` (`traffic learn` for a subcommand). */
  readonly name: string;
  /** One line for the list of commands `dialtone --help` prints. */
  readonly summary: string;
  /** Its positional arguments as the synopsis shows them (`SCENARIO`, `DIR...`); none when absent. */
  readonly positionals?: string;
  /** What the command does, in a paragraph or two. */
  readonly description: string;
  readonly flags: F;
  /** Its exit codes besides usage (2) and internal (4), which every command gives; a code given here says more. */
  readonly exits: Readonly<Partial<Record<ExitCode, string>>>;
  /** The names it accepts, by kind (scenarios, workloads, engines), read when help is printed. */
  readonly accepts?: () => Readonly<Record<string, readonly string[]>>;
}

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The codes every command gives, and what they mean unless the command says more. */
export const COMMON_EXITS: Readonly<Partial<Record<ExitCode, string>>> = {
  [EXIT.usage]: 'a usage or profile error (one line, or one block for a profile, says what was expected and what was found)',
  [EXIT.internal]: "a fault in dialtone itself, never the target's or the user's (set DIALTONE_DEBUG=1 for the stack)",
};

/**
 * Declares a command; the flags' types flow into `parseCommand`'s values.
 *
 * @example
 * const spec = defineCommand({ name: 'contract', summary: '…', description: '…', flags: { out: { type: 'string', help: '…' } }, exits: { 0: 'written' } });
 */
export function defineCommand<const F extends FlagSpecs>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

/** Every exit code of a command, in numeric order, the common ones included. */
export function exitsOf(spec: CommandSpec): [number, string][] {
  const all = { ...COMMON_EXITS, ...spec.exits } as Record<string, string>;
  return Object.entries(all)
    .map(([code, meaning]): [number, string] => [Number(code), meaning])
    .sort((a, b) => a[0] - b[0]);
}

/**
 * Parses a command's arguments against its declaration; an unknown flag or a missing value is a one-line usage error.
 *
 * @example
 * const { values, positionals } = parseCommand(spec, ['chat-turns', '--rate', '5']);
 */
export function parseCommand<const F extends FlagSpecs>(spec: CommandSpec<F>, argv: string[]) {
  const options = Object.fromEntries(
    Object.entries(spec.flags).map(([name, f]) => [name, f.multiple ? { type: f.type, multiple: true } : { type: f.type }]),
  ) as { [K in keyof F]: { type: F[K]['type']; multiple: F[K]['multiple'] extends true ? true : false } };
  const parsed = parse(spec.name, argv, options, spec.positionals !== undefined);
  for (const [name, f] of Object.entries(spec.flags)) {
    const given = (parsed.values as Record<string, unknown>)[name];
    if (!f.choices || given === undefined) continue;
    for (const v of [given].flat())
      if (!f.choices.includes(String(v))) throw new UsageError(`${spec.name}: --${name} must be ${orList(f.choices)}, got '${String(v)}'`);
  }
  return parsed;
}

/** `a, b or c`. */
export const orList = (items: readonly string[]): string => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);
