import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Joins a string option with a value that looks like a negative number (`--rate -5` → `--rate=-5`): node's parser
 * reads `-5` as a flag and answers "ambiguous", where the user should hear what a good value is.
 */
function joinNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parse<T extends Options>(command: string, argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, strict: true, allowPositionals });
  } catch (e) {
    const message = (e as Error).message.split('\n')[0]?.replace(/\. To specify a positional argument.*$/, '') ?? 'bad arguments';
    throw new UsageError(`${command}: ${message}`);
  }
}
