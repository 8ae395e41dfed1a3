import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AccessTokenErrors,
  type AccessTokenResponse,
  JSON_CONTENT_TYPE,
  MessagingPaths,
  RateLimitErrors,
  RETRY_AFTER_HEADER,
  SessionErrors,
  SessionRequest,
  type SessionResponse,
} from '../../contract/messaging/shapes.js';
import type { ErrorEntry } from '../../contract/rule.js';
import { isRecord } from '../http.js';
import { parseLimitedJson } from '../limits.js';
import { withOp } from '../ops.js';
import { hostMatches } from './connectors.js';
import { accessTokenLimitKey } from './rate-limit.js';
import { checkHandshake } from './sockets.js';
import type { MessagingState } from './state.js';

/** Sends a catalogue error as `{ "error": text }` (the body shape is a reference-target choice). */
function sendError(reply: FastifyReply, error: ErrorEntry, text = error.text): FastifyReply {
  return reply.code(error.status ?? 500).send({ error: text });
}

/** A single header value, whatever case the client wrote its name in. */
function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

type Body = { readonly ok: true; readonly value: Record<string, unknown> | undefined } | { readonly ok: false };

/**
 * Whether the request says its body is JSON, as both handshake endpoints require with or without a body: the media type
 * of Content-Type is application/json, parameters (`; charset=utf-8`) aside. One defect takes any or none.
 */
function saysJson(state: MessagingState, req: FastifyRequest): boolean {
  if (state.ctx.defects.has('messaging-content-type-ignored')) return true;
  const mediaType = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return mediaType === JSON_CONTENT_TYPE;
}

/** The raw body as a JSON object; no bytes is "no body". Anything else is unparseable. */
function parseBody(req: FastifyRequest): Body {
  const raw = typeof req.body === 'string' ? req.body : '';
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    const value: unknown = parseLimitedJson(raw);
    return isRecord(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** Applies a rate limit; on refusal sends 429 with Retry-After and returns false. */
function withinLimit(state: MessagingState, reply: FastifyReply, key: string, limit: { limit: number; window_ms: number }): boolean {
  const verdict = state.limiter.hit(key, limit);
  if (verdict.ok) return true;
  // One defect leaves the header out, another announces a retry at once that the window still refuses.
  const retryAfterS = state.ctx.defects.has('messaging-retry-after-zero') ? 0 : verdict.retryAfterS;
  if (!state.ctx.defects.has('messaging-retry-after-missing')) reply.header(RETRY_AFTER_HEADER, String(retryAfterS));
  sendError(reply, RateLimitErrors.RATE_LIMITED);
  return false;
}

/** POST /api/v1/access-token: connector token and X-Host for a signed JWT. */
function accessToken(state: MessagingState, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { defects } = state.ctx;
  const token = header(req, 'x-token');
  const host = header(req, 'x-host');
  if (!token || !host) return sendError(reply, AccessTokenErrors.MISSING_HEADERS);
  const connector = state.connectors.byToken(token);
  if (!connector) {
    const text = defects.has('messaging-connector-text-changed') ? 'Connector token not found' : AccessTokenErrors.CONNECTOR_TOKEN_NOT_FOUND.text;
    return sendError(reply, AccessTokenErrors.CONNECTOR_TOKEN_NOT_FOUND, text);
  }
  if (!withinLimit(state, reply, accessTokenLimitKey(connector.id), state.rateLimitsOf(connector).http)) return reply;
  if (!connector.hostDomain) return sendError(reply, AccessTokenErrors.CONNECTOR_MISSING_HOST);
  const mode = defects.has('messaging-subdomain-refused') ? 'exact-only' : defects.has('messaging-host-suffix-match') ? 'suffix-only' : 'exact-or-subdomain';
  if (!hostMatches(connector.hostDomain, host, mode)) return sendError(reply, AccessTokenErrors.CONNECTOR_VALIDATION_FAILED);
  // Reference-target choice: the documented parse-error text of the session endpoint, for the same causes here (a
  // request that does not say it is JSON, a body that is not a JSON object).
  if (!saysJson(state, req) || !parseBody(req).ok) return sendError(reply, SessionErrors.PARSE_ERROR);
  if (state.takeHttpFault(connector.token, 'create-access-token')) return sendError(reply, AccessTokenErrors.CREATE_FAILED);
  const out: AccessTokenResponse = { ...state.issueToken(connector, host), token_type: 'Bearer' };
  return reply.send(out);
}

/** POST /api/v1/sessions: Bearer access token, optional body, a new session. */
function createSession(state: MessagingState, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const authorization = header(req, 'authorization');
  if (authorization === undefined) return sendError(reply, SessionErrors.MISSING_ACCESS_TOKEN);
  const bearer = /^Bearer +(\S+)$/.exec(authorization.trim());
  if (!bearer?.[1]) {
    return sendError(reply, state.ctx.defects.has('messaging-non-bearer-as-missing') ? SessionErrors.MISSING_ACCESS_TOKEN : SessionErrors.MISSING_HEADERS);
  }
  const verdict = state.verifyToken(bearer[1]);
  const connector = verdict.ok ? state.connectors.byId(verdict.claims.sub) : undefined;
  if (!verdict.ok || !connector) return sendError(reply, SessionErrors.INVALID_ACCESS_TOKEN);
  if (!withinLimit(state, reply, `sessions:${verdict.claims.jti}`, state.rateLimitsOf(connector).http)) return reply;
  // Reference-target choice: a request that does not say it is JSON gets the parse-error text, body or none.
  if (!saysJson(state, req)) return sendError(reply, SessionErrors.PARSE_ERROR);
  const body = parseBody(req);
  const parsed = body.ok ? SessionRequest.safeParse(body.value ?? {}) : undefined;
  if (!parsed?.success) return sendError(reply, SessionErrors.PARSE_ERROR);
  if (state.takeHttpFault(verdict.claims.jti, 'create-session')) return sendError(reply, SessionErrors.CREATE_FAILED);
  const session = state.sessions.create({
    connectorId: connector.id,
    streaming: parsed.data.streaming_enabled,
    platform: parsed.data.platform,
    userAgent: header(req, 'user-agent'),
  });
  const out: SessionResponse = { session_id: session.id };
  return reply.send(out);
}

/**
 * Registers the two handshake endpoints in a scope of their own: bodies arrive as raw strings whatever the content
 * type, so each endpoint answers bad input with its documented text, not the host's generic one.
 */
export function registerEndpoints(app: FastifyInstance, state: MessagingState): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((error, _req, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      return reply.code(status).send({ error: status >= 500 ? 'Internal error' : (error as Error).message });
    });
    scope.post(MessagingPaths.accessToken, withOp('messaging.access_token'), (req, reply) => accessToken(state, req, reply));
    scope.post(MessagingPaths.sessions, withOp('messaging.session'), (req, reply) => createSession(state, req, reply));
    // A plain GET (no upgrade) answers what the handshake would, so a curl line reproduces handshake errors.
    scope.get(MessagingPaths.ws, (req, reply) => {
      const verdict = checkHandshake(state, new URL(req.url, 'http://localhost').searchParams);
      return verdict.ok ? reply.code(426).header('Upgrade', 'websocket').send({ error: 'upgrade required' }) : sendError(reply, verdict.error);
    });
  });
}
