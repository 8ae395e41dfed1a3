import type { z } from 'zod';
import { type Meaning, meanings } from './meaning.js';
import { describeNearMisses, nearMisses } from './near-miss.js';

/** One way a value breaks its documented shape: where, what, and the rule that states that part. */
export interface ShapeIssue {
  /** Dotted path in the value (`conversations.3.turns.0.latency`), or `body`. */
  readonly path: string;
  readonly message: string;
  /** The rule whose sentence states the part: the nearest meaning on the path, else the operation's rule. */
  readonly rule: string;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** The schema under its wrappers (optional, nullable, default, a pipe's input), each with its own meaning on the way. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; meaning: Meaning } {
  let s = schema;
  let m: Meaning = { ...meanings.get(s) };
  for (;;) {
    const def = defOf(s);
    const next = WRAPPERS.has(def.type)
      ? (def.innerType as z.ZodType)
      : def.type === 'pipe'
        ? (def.in as z.ZodType)
        : def.type === 'lazy'
          ? (def.getter as () => z.ZodType)()
          : undefined;
    if (!next) return { inner: s, meaning: m };
    s = next;
    m = { ...meanings.get(s), ...m };
  }
}

/** A schema's documented meaning, read through its wrappers (the outermost wins). */
export const meaningOf = (schema: z.ZodType): Meaning => unwrap(schema).meaning;

/** The schema under its wrappers: the string or number a field's bounds are read from. */
export const innerOf = (schema: z.ZodType): z.ZodType => unwrap(schema).inner;

/** The child schema at one path segment, or undefined where the schema does not describe it. */
function child(schema: z.ZodType, key: string | number): z.ZodType | undefined {
  const { inner } = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case 'object':
      return (def.shape as Record<string, z.ZodType>)[String(key)];
    case 'array':
      return def.element as z.ZodType;
    case 'record':
      return def.valueType as z.ZodType;
    case 'union':
      return (def.options as z.ZodType[]).map((o) => child(o, key)).find((c) => c !== undefined);
    case 'intersection':
      return child(def.left as z.ZodType, key) ?? child(def.right as z.ZodType, key);
    default:
      return undefined;
  }
}

/** The rule of the nearest part on `path` that names one, else `fallback`. */
export function ruleAt(schema: z.ZodType, path: readonly PropertyKey[], fallback: string): string {
  let rule = meaningOf(schema).rule ?? fallback;
  let s: z.ZodType | undefined = schema;
  for (const key of path) {
    if (typeof key === 'symbol') break;
    s = s ? child(s, key) : undefined;
    if (!s) break;
    rule = meaningOf(s).rule ?? rule;
  }
  return rule;
}

/**
 * The rules named by the parts of a shape that `value` holds (`meaning(…, { rule })`), at any depth: what a derived
 * check of the value judged, each passing where no issue names it. A part the value does not hold is not judged.
 *
 * @example
 * rulesHeld(ChatRespondResponse, { conversation_id: 'c', response: 'r', end_conversation: true, handoff: { destination: 'd', reason: 'r' } })
 * // ['chat.respond.handoff-shape']
 */
export function rulesHeld(schema: z.ZodType, value: unknown): string[] {
  if (value === undefined) return [];
  const { inner, meaning } = unwrap(schema);
  const def = defOf(inner);
  const here = meaning.rule ? [meaning.rule] : [];
  let below: string[] = [];
  if (def.type === 'object' && isRecord(value)) {
    const shape = def.shape as Record<string, z.ZodType>;
    const counted = Object.values(shape).flatMap((s) => {
      const { countOf: c, lifetimeOf: l } = meaningOf(s);
      const list = c ? value[c.list] : undefined;
      return [...(c && Array.isArray(list) && list.length > 0 ? [c.rule] : []), ...(l && lifetimeOf(value[l.token]) !== undefined ? [l.rule] : [])];
    });
    below = [...counted, ...Object.entries(shape).flatMap(([k, s]) => rulesHeld(s, value[k]))];
  } else if (def.type === 'array' && Array.isArray(value)) {
    const ordered = meaning.ascendingBy && value.length > 1 ? [meaning.ascendingBy.rule] : [];
    below = [...ordered, ...value.flatMap((v) => rulesHeld(def.element as z.ZodType, v))];
  } else if (def.type === 'record' && isRecord(value)) {
    below = Object.values(value).flatMap((v) => rulesHeld(def.valueType as z.ZodType, v));
  } else if (def.type === 'union') {
    const option = (def.options as z.ZodType[]).find((o) => o.safeParse(value).success) ?? (def.options as z.ZodType[])[0];
    below = option ? rulesHeld(option, value) : [];
  }
  return [...new Set([...here, ...below])];
}

/** Every part-within-whole relation the value breaks (`atMost`), at every depth the schema describes. */
function relationIssues(schema: z.ZodType, value: unknown, path: readonly string[], rule: string): ShapeIssue[] {
  const { inner, meaning } = unwrap(schema);
  const here = meaning.rule ?? rule;
  const def = defOf(inner);
  if (def.type === 'array') {
    if (!Array.isArray(value)) return [];
    return [...orderIssues(meaning, value, path), ...value.flatMap((v, i) => relationIssues(def.element as z.ZodType, v, [...path, String(i)], here))];
  }
  if (def.type === 'union') {
    const option = (def.options as z.ZodType[]).find((o) => o.safeParse(value).success);
    return option ? relationIssues(option, value, path, here) : [];
  }
  if (def.type !== 'object' || !isRecord(value)) return [];
  const shape = def.shape as Record<string, z.ZodType>;
  const out: ShapeIssue[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const m = meaningOf(field);
    const part = value[key];
    const whole = m.atMost === undefined ? undefined : value[m.atMost];
    if (typeof part === 'number' && typeof whole === 'number' && part > whole) {
      out.push({ path: [...path, key].join('.'), rule: m.rule ?? here, message: `${key} ${part} exceeds ${m.atMost} ${whole}, the whole it is part of` });
    }
    const life = m.lifetimeOf ? lifetimeOf(value[m.lifetimeOf.token]) : undefined;
    if (m.lifetimeOf && typeof part === 'number' && life !== undefined && Math.abs(part - life) > Math.max(1, life / 100)) {
      out.push({
        path: [...path, key].join('.'),
        rule: m.lifetimeOf.rule,
        message: `${key} ${part} where ${m.lifetimeOf.token} lives ${life} s (exp less iat)`,
      });
    }
    const count = m.countOf;
    const list = count ? value[count.list] : undefined;
    if (count && typeof part === 'number' && Array.isArray(list) && list.length > 0) {
      const counted = list.filter((item) => count.where === undefined || (isRecord(item) && item[count.where] === true)).length;
      if (counted !== part) {
        const which = count.where === undefined ? `items of ${count.list}` : `items of ${count.list} with ${count.where} true`;
        out.push({ path: [...path, key].join('.'), rule: count.rule, message: `${key} ${part} where the ${which} number ${counted}` });
      }
    }
    if (key in value) out.push(...relationIssues(field, value[key], [...path, key], m.rule ?? here));
  }
  return out;
}

/** The seconds a compact JWT lives by its own claims (`exp` less `iat`), or undefined where it carries no such claims. */
function lifetimeOf(token: unknown): number | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    if (!isRecord(claims) || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return undefined;
    return claims.exp - claims.iat;
  } catch {
    return undefined;
  }
}

const instant = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** Where a list documented in order (`ascendingBy`) has an item earlier than the one before it. */
function orderIssues(meaning: Meaning, items: readonly unknown[], path: readonly string[]): ShapeIssue[] {
  const order = meaning.ascendingBy;
  if (!order) return [];
  const out: ShapeIssue[] = [];
  items.forEach((item, i) => {
    const before = items[i - 1];
    if (i === 0 || !isRecord(item) || !isRecord(before)) return;
    for (const f of order.fields) {
      const [a, b] = [instant(before[f]), instant(item[f])];
      if (!Number.isNaN(a) && !Number.isNaN(b) && b < a) {
        out.push({
          path: [...path, String(i), f].join('.'),
          rule: order.rule,
          message: `${f} ${String(item[f])} is earlier than the item before's ${String(before[f])}`,
        });
      }
    }
  });
  return out;
}

type Issue = { readonly code?: string; readonly path: readonly PropertyKey[]; readonly message: string; readonly errors?: readonly (readonly Issue[])[] };

/** A union's failure as the issues of the option it came nearest to (the fewest issues), each with its whole path. */
function flatten(issue: Issue, prefix: readonly PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
    const nearest = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    if (nearest.length > 0) return nearest.flatMap((i) => flatten(i, path));
  }
  return [{ path, message: issue.message }];
}

/**
 * Everything about `value` that breaks its documented shape: a type, an enum, a required field absent or null where
 * the document gives no null, a documented name sent in another spelling, a part exceeding its whole. Each issue names
 * the rule that states the part it concerns (`meaning(…, { rule })`), else `rule`.
 *
 * @example
 * shapeIssues(ChatRespondResponse, { conversation_id: 'c', response: 'r', End_conversation: false }, 'chat.respond.response-fields')
 * // [{ path: 'end_conversation', message: 'Invalid input: expected boolean, received undefined', rule: 'chat.respond.response-fields' }, …]
 */
export function shapeIssues(schema: z.ZodType, value: unknown, rule: string): ShapeIssue[] {
  const parsed = schema.safeParse(value);
  const typed = parsed.success
    ? []
    : parsed.error.issues
        .flatMap((i) => flatten(i, []))
        .map((i) => ({ path: i.path.map(String).join('.') || 'body', message: i.message, rule: ruleAt(schema, i.path, rule) }));
  const misspelt = nearMisses(schema, value).map((m) => ({
    path: m.path,
    message: describeNearMisses([m]),
    rule: ruleAt(schema, m.path.split('.').slice(0, -1), rule),
  }));
  return [...typed, ...misspelt, ...relationIssues(schema, value, [], rule)];
}
