import type { FastifyInstance } from 'fastify';

// Limits that keep the reference target alive under hostile input. One place, so every listener and socket shares
// them and docs/reference-target.md can name them.

/** Deepest JSON nesting any body or socket frame may have; the documents' shapes need fewer than ten levels. */
export const MAX_JSON_DEPTH = 64;
/** Largest HTTP body any endpoint reads. */
export const MAX_BODY_BYTES = 1 << 20;

/** Listener timeouts (milliseconds): every HTTP listener of the target gets these. */
export const LISTENER_TIMEOUTS = {
  /** Request line and headers must arrive within this. */
  headersMs: 10_000,
  /** The whole request, body included, must arrive within this. */
  requestMs: 15_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: 30_000,
  /** How often node checks the two above. */
  checkIntervalMs: 1_000,
} as const;

/**
 * The deepest nesting of arrays and objects in a JSON text, found in one pass without parsing (strings skipped, escapes
 * honoured); it stops counting once past `limit`, so a hostile body costs no more than its length.
 *
 * @example
 * jsonDepth('{"a":[1,{"b":2}]}'); // 3
 * jsonDepth('"[[["'); // 0
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Thrown by `parseLimitedJson` for a text nested deeper than MAX_JSON_DEPTH. */
export class JsonTooDeep extends Error {
  constructor() {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/**
 * JSON.parse that first refuses a text nested deeper than MAX_JSON_DEPTH (JsonTooDeep), so no later recursive walk
 * (validation, echo, storage, listing) can overflow the stack. Other bad JSON throws JSON.parse's SyntaxError.
 *
 * @example
 * parseLimitedJson('{"a":1}'); // { a: 1 }
 * parseLimitedJson('['.repeat(10_000)); // throws JsonTooDeep
 */
export function parseLimitedJson(text: string): unknown {
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new JsonTooDeep();
  return JSON.parse(text);
}

/**
 * Sets the listener timeouts on a fastify app's node server: a request whose headers or body never complete is
 * answered 408 and its connection closed, and idle keep-alive connections are closed. Upgraded sockets (WebSockets) are
 * no longer HTTP requests, so these do not touch them.
 *
 * @example
 * applyListenerTimeouts(Fastify());
 */
export function applyListenerTimeouts(app: FastifyInstance): void {
  const server = app.server;
  server.headersTimeout = LISTENER_TIMEOUTS.headersMs;
  server.requestTimeout = LISTENER_TIMEOUTS.requestMs;
  server.keepAliveTimeout = LISTENER_TIMEOUTS.keepAliveMs;
}

/** Fastify options shared by every listener of the target (`applyListenerTimeouts` sets the rest on the server). */
export const FASTIFY_LIMITS = {
  bodyLimit: MAX_BODY_BYTES,
  keepAliveTimeout: LISTENER_TIMEOUTS.keepAliveMs,
  requestTimeout: LISTENER_TIMEOUTS.requestMs,
  http: { connectionsCheckingInterval: LISTENER_TIMEOUTS.checkIntervalMs },
} as const;
