// A file's validation problems in the user's words, all at once: `path: what was expected, what was found`, one line
// each, so a profile with three mistakes is fixed in one go rather than in three runs.
import type { z } from 'zod';
import { isNearMiss } from '../contract/near-miss.js';

type Issue = z.core.$ZodIssue & { input?: unknown };

/** A value as the user wrote it, short: strings quoted, objects by their kind. */
export function found(value: unknown): string {
  if (value === undefined) return 'nothing (the field is required)';
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 60 ? `'${value.slice(0, 57)}...'` : `'${value}'`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return `${String(value)} (a ${typeof value})`;
}

/** Top-level fields whose values may be secrets: a mistake there is reported without the value. */
const SECRET_FIELDS = new Set(['credentials', 'control']);

/** A value's kind without the value: `a string`, `a list of 2`, `an object`. */
const kindOfValue = (value: unknown): string =>
  typeof value === 'string' ? 'a string' : Array.isArray(value) || typeof value === 'object' ? found(value) : `a ${typeof value}`;

const ARTICLE: Record<string, string> = { object: 'an object', array: 'a list', integer: 'an integer', int: 'an integer' };
const kindOf = (expected: string): string => ARTICLE[expected] ?? `a ${expected}`;

/** A bound as words: "above 0", "at least 1 characters long". */
function bound(issue: Issue & { minimum?: unknown; maximum?: unknown; inclusive?: boolean; origin?: string }, small: boolean): string {
  const limit = String(small ? issue.minimum : issue.maximum);
  const cmp = small ? (issue.inclusive ? 'at least' : 'above') : issue.inclusive ? 'at most' : 'below';
  if (issue.origin === 'string') return small && limit === '1' ? 'a non-empty string' : `a string ${cmp} ${limit} characters long`;
  if (issue.origin === 'array') return `a list of ${cmp} ${limit}`;
  return `${issue.origin === 'bigint' ? 'an integer' : 'a number'} ${cmp} ${limit}`;
}

/** The words for what an issue expected, by its code; a message of the schema's own ("must look like v1") wins. */
const EXPECTED: Partial<Record<Issue['code'], (issue: Issue) => string>> = {
  invalid_type: (i) => `expected ${kindOf((i as { expected: string }).expected)}`,
  invalid_value: (i) => `expected one of ${(i as { values: unknown[] }).values.map((v) => String(v)).join(', ')}`,
  too_small: (i) => `expected ${bound(i, true)}`,
  too_big: (i) => `expected ${bound(i, false)}`,
  invalid_union: () => 'expected one of the forms this field takes',
};

/** Messages zod writes itself: they are replaced by the words above; any other message is the schema's and is kept. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; valueType?: z.ZodType };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The fields an object schema knows at a path (through optional, default and record levels), or none. */
function fieldsAt(schema: z.ZodType | undefined, path: readonly PropertyKey[]): string[] {
  let at = schema;
  for (let i = 0; at && i <= path.length; ) {
    const def = defOf(at);
    if (def.innerType) at = def.innerType;
    else if (i === path.length) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
    else if (def.type === 'object') at = def.shape?.[String(path[i++])];
    else if (def.type === 'record') {
      at = def.valueType;
      i++;
    } else return [];
  }
  return [];
}

/** One issue as `path: what was expected, what was found`; `schema` lets an unknown field name the one it is near. */
export function issueLine(issue: Issue, schema?: z.ZodType): string {
  const path = issue.path.length ? issue.path.join('.') : '(root)';
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.length ? issue.path.join('.') : 'the top level';
    const known = fieldsAt(schema, issue.path);
    return issue.keys
      .map((k) => {
        const near = known.find((f) => isNearMiss(k, f));
        return (
          `${issue.path.length ? `${path}.` : ''}${k}: expected ${near ? `'${near}'` : 'no such field'} ` +
          `at ${where}, found '${k}'${near ? '' : ' (a typo?)'}`
        );
      })
      .join('\n');
  }
  const own = !ZOD_WORDING.test(issue.message);
  const expected = own ? issue.message : (EXPECTED[issue.code]?.(issue) ?? issue.message);
  // Without `reportInput` zod keeps no input; a missing field still says so in its own message. A value where a
  // credential belongs may be the secret itself: its kind is said, never the value.
  const secret = SECRET_FIELDS.has(String(issue.path[0])) && 'input' in issue && issue.input !== undefined;
  const input = secret
    ? `${kindOfValue(issue.input)} (not shown: a credential is named by its variable, {"env": "NAME"})`
    : 'input' in issue
      ? found(issue.input)
      : /received undefined$/.test(issue.message)
        ? found(undefined)
        : undefined;
  return input === undefined ? `${path}: ${expected}` : `${path}: ${expected}, found ${input}`;
}

/**
 * Every problem of a file: one line `file: path: …` when there is one, else a short block with one line per problem.
 * Parse with `{ reportInput: true }` so each line can say what was found.
 *
 * @example
 * describeIssues('staging.json', error);
 * // "staging.json: 2 problems:\n  name: expected a string, found nothing (the field is required)\n  region: expected one of us-1, uk-1, euw-1, found 'mars-1'"
 */
export function describeIssues(source: string, error: z.ZodError, schema?: z.ZodType): string {
  const lines = error.issues.flatMap((issue) => issueLine(issue as Issue, schema).split('\n'));
  return lines.length === 0 ? `${source}: invalid` : issueBlock(source, lines);
}

/**
 * A file's problems as one message: `file: line` for one, else a short block with one indented line per problem.
 *
 * @example
 * issueBlock('staging.json', ["slos.chat-turn: expected a scenario (…), found 'chat-turn'", '…']);
 * // "staging.json: 2 problems:\n  slos.chat-turn: expected a scenario (…), found 'chat-turn'\n  …"
 */
export function issueBlock(source: string, lines: readonly string[]): string {
  if (lines.length === 1) return `${source}: ${lines[0]}`;
  return [`${source}: ${lines.length} problems:`, ...lines.map((l) => `  ${l}`)].join('\n');
}
