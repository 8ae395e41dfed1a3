import { z } from 'zod';

/**
 * What a part of a shape means beyond its type, as the documents state it: the suite derives checks from it for every
 * operation that sends or answers that part, so a new field that carries a meaning gets the checks without a new case.
 */
export interface Meaning {
  /** The rule that states this part: a derived check of it that fails, fails this rule (else the operation's rule). */
  readonly rule?: string;
  /** The field never exceeds this sibling field of the same object: a part within its whole, in the same unit. */
  readonly atMost?: string;
  /**
   * The documents call the field required: a request without it is refused, with these statuses where the documents
   * give one (else the operation's `invalid` statuses, else any 4xx).
   */
  readonly required?: true | { readonly statuses: readonly number[] };
  /** A documented length limit counted in characters (Unicode code points), never in bytes or UTF-16 units. */
  readonly length?: 'characters';
  /** The count equals the number of items of a sibling list (those whose `where` field is true), whenever the list holds items. */
  readonly countOf?: { readonly list: string; readonly where?: string; readonly rule: string };
  /** A lifetime in seconds: what the sibling JWT's own claims give, `exp` less `iat`, where it carries both. */
  readonly lifetimeOf?: { readonly token: string; readonly rule: string };
  /** A list whose items come in order: each item's `fields` (timestamps) no earlier than the previous item's. */
  readonly ascendingBy?: { readonly fields: readonly string[]; readonly rule: string };
}

/**
 * The meanings, by schema. A registry of its own, not zod's global one: the exported OpenAPI and AsyncAPI documents
 * carry only what the wire carries.
 */
export const meanings = z.registry<Meaning>();

/**
 * Gives a schema its documented meaning and returns it, so a shape reads as one declaration.
 *
 * @example
 * const polyai_duration = meaning(z.number(), { atMost: 'total_duration' });
 */
export function meaning<S extends z.ZodType>(schema: S, m: Meaning): S {
  meanings.add(schema, m);
  given.push(m);
  return schema;
}

const given: Meaning[] = [];

/** Every meaning given so far (the shape modules imported), for the check that each names a catalogue rule. */
export const givenMeanings = (): readonly Meaning[] => given;
