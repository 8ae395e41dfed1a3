import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { AgentsErrors, type ApiError, type ApiErrorItem } from '../../contract/agents/shapes.js';
import type { ErrorEntry } from '../../contract/rule.js';
import { MalformedJson } from '../http.js';

/**
 * Sends a document-3 error body `{message, errors: [{field, message}]}` with the entry's status.
 *
 * @example
 * sendApiError(reply, AgentsErrors.NAME_LENGTH, [{ field: 'name', message: AgentsErrors.NAME_LENGTH.text }]);
 */
export function sendApiError(reply: FastifyReply, entry: ErrorEntry, errors: readonly ApiErrorItem[] = []): FastifyReply {
  const body: ApiError = { message: entry.text, errors: [...errors] };
  return reply.code(entry.status ?? 500).send(body);
}

/** One `{field, message}` per zod issue; the field is the dotted path (`body` for the whole body). */
export function issuesToErrors(error: z.ZodError, prefix?: string): ApiErrorItem[] {
  return error.issues.map((i) => {
    const path = i.path.map(String).join('.');
    return { field: [prefix, path].filter(Boolean).join('.') || 'body', message: i.message };
  });
}

/** Statuses fastify raises itself, mapped to the catalogue so they also carry the document-3 body. */
const FRAMEWORK_STATUS: Record<number, ErrorEntry> = {
  400: AgentsErrors.VALIDATION,
  404: AgentsErrors.NOT_FOUND,
};

/**
 * Makes an encapsulated scope answer only document-3 error bodies: unknown paths, malformed JSON,
 * framework errors (415, 413, ...) and thrown errors (500).
 */
export function useApiErrorBodies(scope: FastifyInstance): void {
  scope.setNotFoundHandler((_req, reply) => sendApiError(reply, AgentsErrors.NOT_FOUND));
  scope.setErrorHandler((error, _req, reply) => {
    if (error instanceof MalformedJson) return sendApiError(reply, AgentsErrors.VALIDATION, [{ field: 'body', message: 'Malformed JSON body' }]);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) return sendApiError(reply, AgentsErrors.INTERNAL);
    const entry = FRAMEWORK_STATUS[status] ?? { status, text: (error as Error).message, documented: false };
    return sendApiError(reply, entry);
  });
}
