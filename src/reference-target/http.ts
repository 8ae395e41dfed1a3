import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ErrorEntry } from '../contract/rule.js';
import { parseLimitedJson } from './limits.js';

/** Sends a catalogue error as `{ error_message }` with its status. */
export function sendError(reply: FastifyReply, error: ErrorEntry, detail?: string): FastifyReply {
  return reply.code(error.status ?? 500).send({ error_message: detail ? `${error.text}: ${detail}` : error.text });
}

/** A JSON body that may be empty: documented optional bodies arrive with Content-Type application/json and no bytes. */
export class MalformedJson extends Error {}

/**
 * Replaces fastify's JSON parser with one that accepts an empty body (undefined) and marks bad
 * JSON (nested deeper than MAX_JSON_DEPTH included) so each surface can answer with its own documented text.
 */
export function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseLimitedJson(text));
    } catch {
      done(new MalformedJson('malformed JSON'), undefined);
    }
  });
}

/** Plain objects only: a JSON array or scalar is not a request body. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
