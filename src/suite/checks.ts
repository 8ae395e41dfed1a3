import type { z } from 'zod';
import type { Response } from '../clients/exchange.js';
import { describeNearMisses, nearMisses } from '../contract/near-miss.js';

/** A documented rule was broken: what the document says against what the target sent. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  constructor(
    readonly check: string,
    readonly documented: string,
    readonly received: string,
  ) {
    super(`${check}\nReceived: ${received}\nDocumented: ${documented}`);
  }
}

const show = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

function fail(check: string, documented: string, received: unknown): never {
  throw new CheckFailure(check, documented, show(received));
}

const received = (res: Response) => `${res.status} ${show(res.text)}`;

/**
 * Small named checks, Schemathesis style: each throws a CheckFailure that says
 * `Received: … / Documented: …`.
 */
export const checks = {
  /** The exact documented status. */
  status(res: Response, expected: number, documented = `status ${expected}`): void {
    if (res.status !== expected) fail('status', documented, received(res));
  },
  /** Any 2xx: for operations whose success status the documents do not give. */
  success(res: Response, documented = 'a successful (2xx) answer'): void {
    if (res.status < 200 || res.status > 299) fail('success', documented, received(res));
  },
  /** Any 4xx: for documented rejections whose status the documents do not give. */
  rejected(res: Response, documented = 'a rejection (4xx)'): void {
    if (res.status < 400 || res.status > 499) fail('rejected', documented, received(res));
  },
  /** Not a success (2xx): for requests the documents make errors without showing their status. */
  notSuccess(res: Response, documented = 'not a successful (2xx) answer'): void {
    if (res.status >= 200 && res.status <= 299) fail('notSuccess', documented, received(res));
  },
  /**
   * The body parses with the documented schema, and names no documented field misspelt (a schema drops keys it does
   * not know, so an optional field sent under a near-miss name would pass unseen); returns the parsed value.
   */
  schema<S extends z.ZodType>(res: Response, schema: S, documented: string): z.infer<S> {
    const parsed = schema.safeParse(res.json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      fail('schema', documented, `${res.status} ${show(res.text)} (${issue?.path.join('.') || 'body'}: ${issue?.message})`);
    }
    checks.names(res.json, schema, documented);
    return parsed.data;
  },
  /** No documented field of `schema` is sent under a near-miss of its name (another case, one letter off). */
  names(value: unknown, schema: z.ZodType, documented: string): void {
    const misses = nearMisses(schema, value);
    if (misses.length > 0) fail('field-name', `${documented}, with the documented field names`, describeNearMisses(misses));
  },
  /** A value equals the documented one. */
  equal<T>(actual: T, expected: T, documented: string): void {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) fail('equal', documented, actual);
  },
  /** A condition the document states; `received` says what was seen instead. */
  that(condition: boolean, documented: string, seen: unknown): void {
    if (!condition) fail('that', documented, seen);
  },
};
