// One declaration per command: its flags, their help, its exit codes and the names it accepts. The parser, `--help`
// and docs/commands.md all read it, so what a command takes and what it says it takes cannot drift apart.
import { EXIT } from '../errors.js';
import { parse } from './args.js';
import { checkedValue, type ValueKind, type ValueRule } from './flag-values.js';

/**
 * One flag: how node:util reads it, what its value must be (`kind`, `min`, `above`, `max`, `choices`: checked by
 * `parseCommand`, worded by help) and what help and docs/commands.md say of it.
 */
export interface FlagSpec extends ValueRule {
  readonly type: 'string' | 'boolean';
  /** Repeatable: every occurrence is kept, in order. */
  readonly multiple?: boolean;
  /** The value's placeholder in help (`N`, `DIR`, `SCENARIO@RATE`); string flags only. */
  readonly value?: string;
  /** What the flag does, one or a few sentences. */
  readonly help: string;
  /** The value the command gets when the flag is absent, written as on the command line: checked, applied and shown alike. */
  readonly default?: string;
  /** What help says of a default the command works out itself (from the environment, another flag, the scenario). */
  readonly defaultText?: string;
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
  /** A command and what it printed, as lines kept as they are (help does not wrap them). */
  readonly example?: string;
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

/** A flag's value as the command receives it: a number for a numeric kind, else its text (a boolean for a switch). */
type ValueOfFlag<S extends FlagSpec> = S extends { type: 'boolean' } ? boolean : S extends { kind: Exclude<ValueKind, 'duration'> } ? number : string;

/** Every flag's value: absent as undefined unless the flag declares a default, repeated ones as a list. */
export type FlagValues<F extends FlagSpecs> = {
  -readonly [K in keyof F]:
    | (F[K] extends { multiple: true } ? ValueOfFlag<F[K]>[] : ValueOfFlag<F[K]>)
    | (F[K] extends { default: string } ? never : undefined);
};

/**
 * Parses a command's arguments against its declaration: an unknown flag, a missing value or a value the declaration
 * refuses (its kind, bounds or choices) is a one-line usage error; an absent flag with a default gets it.
 *
 * @example
 * const { values, positionals } = parseCommand(spec, ['chat-turns', '--rate', '5']); // values.rate === 5 for kind 'positive-integer'
 */
export function parseCommand<const F extends FlagSpecs>(spec: CommandSpec<F>, argv: string[]): { values: FlagValues<F>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec.flags).map(([name, f]) => [name, f.multiple ? { type: f.type, multiple: true } : { type: f.type }]),
  ) as Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  const parsed = parse(spec.name, argv, options, spec.positionals !== undefined);
  const given = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  const values: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(spec.flags)) {
    const raw = given[name] ?? f.default;
    const check = (v: string | boolean) => (typeof v === 'string' ? checkedValue(spec.name, name, v, f) : v);
    if (raw !== undefined) values[name] = Array.isArray(raw) ? raw.map(check) : check(raw);
  }
  return { values: values as FlagValues<F>, positionals: parsed.positionals };
}
