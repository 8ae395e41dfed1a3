import type { z } from 'zod';
import type { Response } from '../../clients/exchange.js';
import { innerOf, meaningOf } from '../../contract/conforms.js';
import type { RuleId } from '../../contract/index.js';
import { OPS, type Op } from '../../contract/operations.js';
import type { CaseApi } from '../case.js';
import type { MutationSpec } from '../mutations/spec.js';

/** What a derived request changes in an otherwise valid request: headers replaced or removed, body fields replaced. */
export interface Change {
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Body fields replaced; one set to undefined is left out. */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Query parameters replaced; one set to undefined is left out. */
  readonly query?: Readonly<Record<string, string | undefined>>;
}

/** Sends one valid request of an operation with a change applied: the one hand-written piece a derived check needs. */
export type Sender = (api: CaseApi, change: Change) => Promise<Response>;

/** An operation's key in a table of senders: its method and documented path. */
export const opKey = (op: Pick<Op, 'method' | 'path'>): string => `${op.method.toUpperCase()} ${op.path}`;

/** Text in scripts where one character is more than one byte, each one code point of the Basic Multilingual Plane. */
export const SCRIPTS: Readonly<Record<string, string>> = { Cyrillic: 'Ж', Greek: 'Ω', Han: '語', Devanagari: 'क', Arabic: 'ع' };
/** A letter with its accent as two code points (NFD): counted in characters, one letter is two; composed (NFC), one. */
const DECOMPOSED = 'e\u0301';
/** A character outside the Basic Multilingual Plane: one code point, two UTF-16 units, four bytes. */
const ASTRAL = '\u{1F600}';

/** The checks each documented request requirement derives, for the operations of one surface. */
export interface Derived {
  readonly op: Op;
  readonly rule: RuleId;
  /** The case's name among its rule's cases, for its own mutation in a proof run. */
  readonly operation: string;
  readonly title: string;
  readonly body: (api: CaseApi, send: Sender) => Promise<void>;
  /** The answer whose rewrite must fail the case: the `nth` request of the case to the operation, its status moved. */
  readonly proof: number;
}

/** The mutation that proves a derived case able to fail: the status of its `nth` request to the operation moved to the other class. */
const proofOf = (d: Derived): MutationSpec => ({
  on: { method: d.op.method.toUpperCase(), path: d.op.path.replace(/\{\w+\}/g, '*'), nth: d.proof },
  how: 'status-class',
});

const succeeded = (res: Response) => res.status >= 200 && res.status < 300;

/** The documented headers of a request, each left out and sent with another value: refused with the documented status. */
function headerChecks(op: Op): Derived[] {
  return Object.entries(op.requires ?? {}).map(([name, { value, rule: id, status }]) => ({
    op,
    rule: id,
    operation: `derived ${name}`,
    // Its second request leaves the header out: let through, it fails the case.
    proof: 1,
    title: `${opKey(op)} without ${name}, or with ${name} other than ${value}, is refused with ${status}`,
    body: async (api, send) => {
      const baseline = await send(api, {});
      api.check.that(succeeded(baseline), `${opKey(op)} with ${name}: ${value} succeeds`, baseline.status);
      const other = value.includes('/') ? 'text/plain' : `${value}-other`;
      for (const [what, sent] of [
        ['without it', undefined],
        [`with ${other}`, other],
      ] as const) {
        // The status alone: the body of a request let through may hold a token, which no report shows.
        const res = await send(api, { headers: { [name]: sent } });
        api.check.that(res.status === status, `${opKey(op)} ${what} answers ${status}`, res.status);
      }
      // The documents name the value, not whether parameters may follow it: what the target does is recorded.
      const withParameters = await send(api, { headers: { [name]: `${value}; charset=utf-8` } });
      api.observe(`${name}: ${value}; charset=utf-8`, withParameters.status);
    },
  }));
}

/** A field's documented bounds, as zod reads them from its checks; a bound zod puts at the safe-integer edge is none. */
interface Bounds {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly integer: boolean;
}
function boundsOf(s: z.ZodType): Bounds {
  const v = s as unknown as { minValue?: number | null; maxValue?: number | null; maxLength?: number | null; isInt?: boolean };
  const finite = (n: number | null | undefined) => (typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);
  const out: { minimum?: number; maximum?: number; maxLength?: number } = {};
  const [minimum, maximum, maxLength] = [finite(v.minValue), finite(v.maxValue), finite(v.maxLength)];
  if (minimum !== undefined) out.minimum = minimum;
  if (maximum !== undefined) out.maximum = maximum;
  if (maxLength !== undefined) out.maxLength = maxLength;
  return { ...out, integer: v.isInt === true };
}

/** A text of `n` characters made of one repeated character. */
const text = (unit: string, n: number) => unit.repeat(n);

/** A body field whose length is documented in characters: at the limit in other scripts and forms, accepted; one past, refused. */
function lengthChecks(op: Op, field: string, schema: z.ZodType, id: RuleId): Derived[] {
  const { maxLength } = boundsOf(innerOf(schema));
  const invalid = op.invalid;
  if (maxLength === undefined || !invalid) return [];
  return [
    {
      op,
      rule: id,
      operation: `derived ${field} at its length`,
      proof: 0,
      title: `${opKey(op)} accepts ${field} of ${maxLength} characters in non-Latin scripts and in decomposed form`,
      body: async (api, send) => {
        for (const [script, unit] of [...Object.entries(SCRIPTS), ['decomposed (NFD) Latin', DECOMPOSED] as const]) {
          const value = unit === DECOMPOSED ? text(unit, Math.floor(maxLength / 2)) : text(unit, maxLength);
          const res = await send(api, { body: { [field]: value } });
          api.check.that(
            succeeded(res),
            `${field} of ${maxLength} characters in ${script} (${Buffer.byteLength(value)} bytes) is accepted`,
            `${res.status} ${res.text.slice(0, 200)}`,
          );
        }
        // One code point, two UTF-16 units: the documents do not say which a "character" is, so the answer is recorded.
        const astral = await send(api, { body: { [field]: text(ASTRAL, maxLength) } });
        api.observe(`${field} of ${maxLength} characters outside the Basic Multilingual Plane`, astral.status);
      },
    },
    {
      op,
      rule: id,
      operation: `derived ${field} past its length`,
      proof: 0,
      title: `${opKey(op)} refuses ${field} of ${maxLength + 1} characters in a non-Latin script with ${invalid.join(' or ')}`,
      body: async (api, send) => {
        const res = await send(api, { body: { [field]: text(SCRIPTS.Cyrillic as string, maxLength + 1) } });
        api.check.that(invalid.includes(res.status), `${field} of ${maxLength + 1} characters is refused with ${invalid.join(' or ')}`, res.status);
      },
    },
  ];
}

/** A numeric body field with documented bounds: each bound accepted, one past refused, a fraction refused for an integer, and beyond 32 bits. */
function boundChecks(op: Op, field: string, schema: z.ZodType, id: RuleId): Derived[] {
  const bag = boundsOf(innerOf(schema));
  const integer = bag.integer;
  const invalid = op.invalid;
  if ((bag.minimum === undefined && bag.maximum === undefined) || !invalid) return [];
  const accepted = [bag.minimum, bag.maximum, ...(bag.maximum === undefined && integer ? [2 ** 32] : [])].filter((v): v is number => v !== undefined);
  const refused = [
    ...(bag.minimum === undefined ? [] : [bag.minimum - 1]),
    ...(bag.maximum === undefined ? [] : [bag.maximum + 1]),
    ...(integer ? [(bag.minimum ?? 0) + 0.5] : []),
  ];
  return [
    {
      op,
      rule: id,
      operation: `derived ${field} bounds`,
      proof: 0,
      title: `${opKey(op)} accepts ${field} ${accepted.join(', ')} and refuses ${refused.join(', ')} with ${invalid.join(' or ')}`,
      body: async (api, send) => {
        for (const value of accepted) {
          const res = await send(api, { body: { [field]: value } });
          api.check.that(succeeded(res), `${field} ${value} is accepted`, `${res.status} ${res.text.slice(0, 200)}`);
        }
        for (const value of refused) {
          const res = await send(api, { body: { [field]: value } });
          api.check.that(invalid.includes(res.status), `${field} ${value} is refused with ${invalid.join(' or ')}`, res.status);
        }
      },
    },
  ];
}

/** The fields of a body or query schema, by name. */
const fieldsOf = (schema: z.ZodType | undefined): [string, z.ZodType][] =>
  Object.entries((schema as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {});

/** Each field the documents call required, left out of an otherwise valid request: refused with the documented status. */
function requiredChecks(op: Op): Derived[] {
  const fields = [...fieldsOf(op.body).map(([n, s]) => ['body', n, s] as const), ...fieldsOf(op.query).map(([n, s]) => ['query', n, s] as const)];
  return fields.flatMap(([where, field, schema]) => {
    const m = meaningOf(schema);
    if (!m.required || !m.rule) return [];
    const statuses = m.required === true ? op.invalid : m.required.statuses;
    const refusal = statuses ? statuses.join(' or ') : 'a 4xx';
    const refused = (status: number) => (statuses ? statuses.includes(status) : status >= 400 && status < 500);
    const what = where === 'query' ? `the query parameter ${field}` : field;
    return [
      {
        op,
        rule: m.rule as RuleId,
        operation: `derived ${field} required`,
        // Its second request leaves the field out: let through, it fails the case.
        proof: 1,
        title: `${opKey(op)} without ${what} is refused with ${refusal}`,
        body: async (api: CaseApi, send: Sender) => {
          const baseline = await send(api, {});
          api.check.that(succeeded(baseline), `${opKey(op)} with ${what} succeeds`, `${baseline.status} ${baseline.text.slice(0, 200)}`);
          const res = await send(api, { [where]: { [field]: undefined } });
          api.check.that(refused(res.status), `${opKey(op)} without ${what} is refused with ${refusal}`, `${res.status} ${res.text.slice(0, 200)}`);
        },
      },
    ];
  });
}

/** The body fields that name their rule, each with the checks its documented bounds derive. */
function fieldChecks(op: Op): Derived[] {
  return fieldsOf(op.body).flatMap(([field, schema]) => {
    const m = meaningOf(schema);
    if (!m.rule || m.required) return [];
    const id = m.rule as RuleId;
    return m.length === 'characters' ? lengthChecks(op, field, schema, id) : boundChecks(op, field, schema, id);
  });
}

/** Every check the contract derives from the documented requirements of requests. */
export function derivedRequestChecks(): Derived[] {
  return OPS.flatMap((op) => [...headerChecks(op), ...requiredChecks(op), ...fieldChecks(op)]);
}

/**
 * The mutation of each derived request case, by rule and case, for the proof run: every derived case is proven able to
 * fail as a hand-written one is.
 *
 * @example
 * derivedProofs()['agents.agent.name-max-128']?.['derived name past its length'] // { on: { method: 'POST', path: '/v1/agents', nth: 0 }, … }
 */
export function derivedProofs(): Record<string, Record<string, MutationSpec>> {
  const out: Record<string, Record<string, MutationSpec>> = {};
  for (const d of derivedRequestChecks()) out[d.rule] = { ...out[d.rule], [d.operation]: proofOf(d) };
  return out;
}
