import type { z } from 'zod';

/** A request body read through a contract shape: its parsed data, or the top-level fields the shape refused. */
export type CheckedBody<T> = { ok: true; data: T } | { ok: false; fields: string[] };

/**
 * Reads a body with the contract's own shape, so the target accepts exactly what the documents describe. A body left
 * out is read as `{}`: documented optional bodies arrive with no bytes, and a required field is then the one missing.
 * The refused fields come once each, in the order the shape names them; `''` stands for the body itself.
 *
 * @example checkBody(ChatCloseRequest, { conversation_id: 7 }) // { ok: false, fields: ['conversation_id'] }
 */
export function checkBody<S extends z.ZodType>(shape: S, body: unknown): CheckedBody<z.output<S>> {
  const parsed = shape.safeParse(body ?? {});
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, fields: [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')))] };
}
