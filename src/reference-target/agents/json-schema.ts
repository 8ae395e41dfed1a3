/** The subset of JSON Schema (draft 2020-12 keywords) a real-time config page may use. */
export interface JsonSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** The JSON types `type` may name. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** One violation: where (a dotted path, `$` for the root) and what. */
export interface SchemaViolation {
  readonly path: string;
  readonly message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a value has a JSON type; integer is a number without a fraction. */
const TYPE_CHECKS: Record<JsonType, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  object: isObject,
  array: Array.isArray,
  null: (v) => v === null,
};

type Keyword = (schema: JsonSchema, value: unknown, path: string, out: SchemaViolation[]) => void;

const join = (path: string, key: string | number) => (path === '$' ? String(key) : `${path}.${key}`);

/** One check per keyword, applied in this order; keywords that do not apply to the value's type are skipped. */
const KEYWORDS: readonly Keyword[] = [
  (s, v, p, out) => {
    if (s.type === undefined) return;
    const types = typeof s.type === 'string' ? [s.type] : s.type;
    if (!types.some((t) => TYPE_CHECKS[t](v))) out.push({ path: p, message: `must be of type ${types.join(' or ')}` });
  },
  (s, v, p, out) => {
    if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) out.push({ path: p, message: `must be one of ${JSON.stringify(s.enum)}` });
  },
  (s, v, p, out) => {
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) out.push({ path: p, message: `must be ${JSON.stringify(s.const)}` });
  },
  (s, v, p, out) => {
    if (typeof v !== 'number') return;
    if (s.minimum !== undefined && v < s.minimum) out.push({ path: p, message: `must be >= ${s.minimum}` });
    if (s.maximum !== undefined && v > s.maximum) out.push({ path: p, message: `must be <= ${s.maximum}` });
    if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) out.push({ path: p, message: `must be > ${s.exclusiveMinimum}` });
    if (s.exclusiveMaximum !== undefined && v >= s.exclusiveMaximum) out.push({ path: p, message: `must be < ${s.exclusiveMaximum}` });
  },
  (s, v, p, out) => {
    if (typeof v !== 'string') return;
    const length = [...v].length;
    if (s.minLength !== undefined && length < s.minLength) out.push({ path: p, message: `must have at least ${s.minLength} characters` });
    if (s.maxLength !== undefined && length > s.maxLength) out.push({ path: p, message: `must have at most ${s.maxLength} characters` });
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(v)) out.push({ path: p, message: `must match ${s.pattern}` });
  },
  (s, v, p, out) => {
    if (!isObject(v)) return;
    for (const name of s.required ?? []) if (!(name in v)) out.push({ path: join(p, name), message: 'is required' });
    for (const [name, value] of Object.entries(v)) {
      const sub = s.properties?.[name];
      if (sub) validateAt(sub, value, join(p, name), out);
      else if (s.additionalProperties === false) out.push({ path: join(p, name), message: 'is not allowed' });
      else if (isObject(s.additionalProperties)) validateAt(s.additionalProperties, value, join(p, name), out);
    }
  },
  (s, v, p, out) => {
    if (!Array.isArray(v)) return;
    if (s.minItems !== undefined && v.length < s.minItems) out.push({ path: p, message: `must have at least ${s.minItems} items` });
    if (s.maxItems !== undefined && v.length > s.maxItems) out.push({ path: p, message: `must have at most ${s.maxItems} items` });
    if (!s.items) return;
    for (const [i, item] of v.entries()) validateAt(s.items, item, join(p, i), out);
  },
];

function validateAt(schema: JsonSchema, value: unknown, path: string, out: SchemaViolation[]): void {
  for (const keyword of KEYWORDS) keyword(schema, value, path, out);
}

/**
 * Validates a value against a JSON Schema subset; an empty list means valid.
 *
 * @example
 * validateJsonSchema({ type: 'object', properties: { max_turns: { type: 'integer', maximum: 100 } } }, { max_turns: 500 });
 * // [{ path: 'max_turns', message: 'must be <= 100' }]
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  validateAt(schema, value, '$', out);
  return out;
}

const SCHEMA_KEYS = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  '$schema',
  'title',
  'description',
]);

/** Whether a value is a schema this validator understands (unknown keywords are refused rather than ignored). */
export function isSupportedSchema(value: unknown): value is JsonSchema {
  if (!isObject(value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (!SCHEMA_KEYS.has(k)) return false;
    if (k === 'properties' && (!isObject(v) || !Object.values(v).every(isSupportedSchema))) return false;
    if ((k === 'items' || (k === 'additionalProperties' && typeof v !== 'boolean')) && !isSupportedSchema(v)) return false;
  }
  return true;
}
