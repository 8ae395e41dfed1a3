import type { z } from 'zod';

/** A key a target sent in place of a documented one it left out: `sdpMlineIndex` for `sdpMLineIndex`. */
export interface NearMiss {
  /** Where the key was sent, dotted (`data.sdpMlineIndex`, `conversations.3.variantId`). */
  readonly path: string;
  readonly sent: string;
  readonly documented: string;
}

const squash = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** Optimal string alignment distance: one letter wrong, missing, extra, or two neighbours swapped each count 1. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * Whether `sent` is a misspelling of the documented name `documented`: the same name in another case or with other
 * separators, or (for names of five letters or more, where one letter cannot make another word) one letter off.
 *
 * @example
 * isNearMiss('sdpMlineIndex', 'sdpMLineIndex') // true
 * isNearMiss('variant_name', 'variant_id') // false
 */
export function isNearMiss(sent: string, documented: string): boolean {
  if (sent === documented) return false;
  const [a, b] = [squash(sent), squash(documented)];
  return a === b || (b.length >= 5 && distance(a, b) <= 1);
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The keys of `value` that are near misses of documented keys of `schema` it left out, at every depth the schema
 * describes. A schema drops keys it does not know, so an optional documented field sent misspelt is otherwise unseen.
 *
 * @example
 * nearMisses(IceCandidateMessage, { type: 'ice-candidate', sessionId: 's', data: { candidate: 'c', sdpMlineIndex: 0 } })
 * // [{ path: 'data.sdpMlineIndex', sent: 'sdpMlineIndex', documented: 'sdpMLineIndex' }]
 */
export function nearMisses(schema: z.ZodType, value: unknown, path: readonly string[] = []): NearMiss[] {
  const def = defOf(schema);
  const inner = (k: string) => nearMisses(def[k] as z.ZodType, value, path);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return inner('innerType');
    case 'pipe':
      return inner('in');
    case 'lazy':
      return nearMisses((def.getter as () => z.ZodType)(), value, path);
    case 'intersection':
      return [...inner('left'), ...inner('right')];
    case 'array':
      return Array.isArray(value) ? value.flatMap((v, i) => nearMisses(def.element as z.ZodType, v, [...path, String(i)])) : [];
    case 'record':
      return isRecord(value) ? Object.entries(value).flatMap(([k, v]) => nearMisses(def.valueType as z.ZodType, v, [...path, k])) : [];
    case 'union': {
      // The option the value is: the first that parses it.
      const option = (def.options as z.ZodType[]).find((o) => o.safeParse(value).success);
      return option ? nearMisses(option, value, path) : [];
    }
    case 'object': {
      if (!isRecord(value)) return [];
      const shape = def.shape as Record<string, z.ZodType>;
      const absent = Object.keys(shape).filter((k) => !(k in value));
      const misses = Object.keys(value)
        .filter((k) => !(k in shape))
        .flatMap((sent) =>
          absent.filter((documented) => isNearMiss(sent, documented)).map((documented) => ({ path: [...path, sent].join('.'), sent, documented })),
        );
      const deeper = Object.entries(shape).flatMap(([k, s]) => (k in value ? nearMisses(s, value[k], [...path, k]) : []));
      return [...misses, ...deeper];
    }
    default:
      return [];
  }
}

/**
 * Whether `value` is what `schema` documents with no documented key misspelt: `safeParse(value).success` that a
 * near miss of an optional field cannot pass.
 *
 * @example
 * fits(IceCandidateMessage, { type: 'ice-candidate', sessionId: 's', data: { candidate: 'c', sdpMlineIndex: 0 } }) // false
 */
export function fits(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success && nearMisses(schema, value).length === 0;
}

/** One line per near miss, for a check's "received". */
export const describeNearMisses = (misses: readonly NearMiss[]): string =>
  misses.map((m) => `${m.path} sent where the document names ${m.documented}`).join('; ');
