// Plain values without zod, for k6 scenarios: a k6 bundle that imports zod makes every VU build all of it at start
// (about 750 KB of code a VU), which costs the generator CPU and memory per VU. messaging.ts re-exports them.

/** Messaging HTTP and WebSocket paths on `{messaging_url}` (document 1, Endpoints). */
export const MessagingPaths = {
  accessToken: '/api/v1/access-token',
  sessions: '/api/v1/sessions',
  ws: '/ws',
} as const;

/** The one content type the handshake endpoints require. */
export const JSON_CONTENT_TYPE = 'application/json';

/** Access-token request header names, spelled exactly as the document writes them. */
export const AccessTokenHeaders = {
  token: 'X-Token',
  host: 'X-Host',
  contentType: 'Content-Type',
} as const;

/** Session request header names; `User-Agent` is the only optional one. */
export const SessionHeaders = {
  authorization: 'Authorization',
  contentType: 'Content-Type',
  userAgent: 'User-Agent',
} as const;

/**
 * Reference-target choice: the host domain the reference target registers for its messaging connector. A profile
 * without `messaging_host` sends it as `X-Host`; a subdomain of it matches too.
 */
export const REFERENCE_MESSAGING_HOST = 'app.dialtone.test';

/** The header a 429 carries to say when to retry. */
export const RETRY_AFTER_HEADER = 'Retry-After';

/**
 * Builds the `Authorization` value for a session request.
 *
 * @example
 * bearer('eyJhbGciOi...') // 'Bearer eyJhbGciOi...'
 */
export function bearer(accessToken: string): string {
  return `Bearer ${accessToken}`;
}

/** The prefix of a history cursor. */
export const CURSOR_PREFIX = 'seq:';

/**
 * Builds a history cursor for the WebSocket query.
 *
 * @example
 * formatCursor(12) // 'seq:12'
 */
export function formatCursor(n: number): string {
  return `${CURSOR_PREFIX}${Math.max(0, Math.trunc(n))}`;
}

/** Simultaneous WebSocket connections per session (default); the next handshake gets 429. */
export const MAX_SOCKETS_PER_SESSION = 10;
