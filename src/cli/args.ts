import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: string, argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (e) {
    const message = (e as Error).message.split('\n')[0]?.replace(/\. To specify a positional argument.*$/, '') ?? 'bad arguments';
    throw new UsageError(`${command}: ${message}`);
  }
}
