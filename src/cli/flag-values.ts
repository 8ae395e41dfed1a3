// What a flag's value must be, said once: the check after parsing, the words of its refusal and the line help prints
// all read the same fields of its declaration (src/cli/command.ts), so none can say something the others do not.
import { UsageError } from '../errors.js';

/** What a string flag's value must be; a numeric kind reaches the command as a number, a duration as its text. */
export type ValueKind = 'number' | 'positive-number' | 'integer' | 'positive-integer' | 'duration' | 'percent';

/** The fields of a flag's declaration that say what its value must be and what it is when absent. */
export interface ValueRule {
  readonly kind?: ValueKind;
  /** The smallest value taken (numeric kinds). */
  readonly min?: number;
  /** A value must be above this one (numeric kinds): `factor` is above 1. */
  readonly above?: number;
  /** The largest value taken (numeric kinds). */
  readonly max?: number;
  /** The only values taken. */
  readonly choices?: readonly string[];
}

/** `a, b or c`. */
export const orList = (items: readonly string[]): string => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);

const DURATION = /^\d+(s|m|h)$/;
const PERCENT = /^(\d+(?:\.\d+)?)%$/;
const SECONDS_PER = { s: 1, m: 60, h: 3600 } as const;

/** The bounds of a number as words: `from 1 to 16`, `above 0 and at most 1`, `1 or more`. */
function boundsText(r: ValueRule, integer: boolean): string {
  const min = r.min ?? (r.kind === 'positive-integer' ? 1 : undefined);
  const above = r.above ?? (r.kind === 'positive-number' ? 0 : undefined);
  if (min !== undefined && r.max !== undefined) return ` from ${min} to ${r.max}`;
  if (above !== undefined) return ` above ${above}${r.max === undefined ? '' : ` and at most ${r.max}`}`;
  if (min !== undefined) return integer ? `, ${min} or more` : ` of at least ${min}`;
  return r.max === undefined ? '' : ` of at most ${r.max}`;
}

/**
 * What a flag takes, in the words its refusal and its help both use; undefined for a flag that takes any text.
 *
 * @example
 * expectedOf({ kind: 'integer', min: 0, max: 5 }); // 'a whole number from 0 to 5'
 */
export function expectedOf(r: ValueRule): string | undefined {
  if (r.choices) return orList(r.choices);
  switch (r.kind) {
    case undefined:
      return undefined;
    case 'duration':
      return 'a duration such as 30s, 5m or 1h';
    case 'percent':
      return 'a percentage such as 2%';
    case 'integer':
    case 'positive-integer':
      return `a whole number${boundsText(r, true)}`;
    default:
      return `a number${boundsText(r, false)}`;
  }
}

/** A number within the rule's bounds, or undefined. */
function inBounds(n: number, r: ValueRule): number | undefined {
  const integer = r.kind === 'integer' || r.kind === 'positive-integer';
  const above = r.above ?? (r.kind === 'positive-number' ? 0 : undefined);
  const min = r.min ?? (r.kind === 'positive-integer' ? 1 : undefined);
  const ok = Number.isFinite(n) && (!integer || Number.isInteger(n)) && (above === undefined || n > above) && (min === undefined || n >= min);
  return ok && (r.max === undefined || n <= r.max) ? n : undefined;
}

/** The value as the command receives it, or undefined when the rule refuses it. */
function taken(text: string, r: ValueRule): string | number | undefined {
  if (r.choices) return r.choices.includes(text) ? text : undefined;
  switch (r.kind) {
    case undefined:
      return text;
    case 'duration':
      return DURATION.test(text) ? text : undefined;
    case 'percent': {
      const m = PERCENT.exec(text);
      return m ? inBounds(Number(m[1]), r) : undefined;
    }
    default:
      // Number('') is 0 and Number(' 5') is 5: only text that looks like a number is one.
      return /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? inBounds(Number(text), r) : undefined;
  }
}

/**
 * Checks one value of a flag against its declaration and gives it as the command takes it (a number for a numeric
 * kind); a value the declaration refuses is a one-line usage error saying what it expected and what it got.
 *
 * @example
 * checkedValue('load', 'rate', '2.5', { kind: 'positive-integer' }); // throws "load: --rate: expected a whole number, 1 or more, got '2.5'"
 */
export function checkedValue(command: string, flag: string, text: string, r: ValueRule): string | number {
  const value = taken(text, r);
  if (value === undefined) throw new UsageError(`${command}: --${flag}: expected ${expectedOf(r)}, got '${text}'`);
  return value;
}

/**
 * Seconds in a duration a flag took (`90s`, `5m`, `2h`).
 *
 * @example
 * durationSeconds('5m'); // 300
 */
export function durationSeconds(text: string): number {
  const m = /^(\d+)(s|m|h)$/.exec(text);
  if (!m) throw new UsageError(`'${text}' is not a duration such as 30s, 5m or 1h`);
  return Number(m[1]) * SECONDS_PER[m[2] as keyof typeof SECONDS_PER];
}
