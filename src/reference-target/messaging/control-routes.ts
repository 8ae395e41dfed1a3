import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { accessTokenLimitKey } from './rate-limit.js';
import { SessionFault } from './sessions.js';
import type { HttpFault, MessagingState } from './state.js';
import { liveAgentSays } from './turns.js';

const RateLimit = z.strictObject({ limit: z.number().int().nonnegative(), window_ms: z.number().int().positive() });
const RateLimits = z.strictObject({ http: RateLimit.optional(), socket: RateLimit.optional() });

/** POST /messaging/connectors: a connector of its own for a case (no host domain, no handoff, tight limits). */
const NewConnector = z.strictObject({
  host_domain: z.string().min(1).nullable().optional(),
  handoff: z.boolean().optional(),
  rate_limits: RateLimits.optional(),
});

/** POST /messaging/faults: one-shot failures, each scoped to what it breaks so parallel cases never share one. */
const Fault = z.discriminatedUnion('fault', [
  z.strictObject({ fault: z.literal('create-access-token'), connector_token: z.string().min(1) }),
  z.strictObject({ fault: z.literal('create-session'), access_token: z.string().min(1) }),
  z.strictObject({ fault: z.enum(SessionFault), session_id: z.string().min(1) }),
]);

const Age = z.strictObject({ ms: z.number().int().nonnegative() });
/** POST /messaging/sessions/:id/live-agent-message: what the session's live agent writes. */
const LiveAgentMessage = z.strictObject({ text: z.string().min(1) });
const TokenAge = Age.extend({ access_token: z.string().min(1) });
const Config = z.strictObject({
  token_ttl_s: z.number().int().positive().optional(),
  rate_limits: RateLimits.optional(),
  reply_delay_ms: z.number().int().nonnegative().optional(),
  chunk_delay_ms: z.number().int().nonnegative().optional(),
});

type Params = { Params: { id: string } };

function parse<S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.infer<S> | undefined {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  void reply.code(400).send({ error_message: `${issue?.path.join('.') || 'body'}: ${issue?.message}` });
  return undefined;
}

const noSession = (reply: FastifyReply) => reply.code(404).send({ error_message: 'no such messaging session' });

/**
 * Test-only endpoints under `/messaging/…` of the control surface: connectors, faults, and time forced on one token
 * or one session (so a case never moves the clock under cases running beside it).
 */
export function registerMessagingControl(app: FastifyInstance, state: MessagingState): void {
  app.get('/messaging/config', async () => state.config);
  app.put('/messaging/config', async (req, reply) => {
    const body = parse(Config, req.body, reply);
    if (!body) return reply;
    const { rate_limits, ...rest } = body;
    Object.assign(state.config, rest, { rate_limits: { ...state.config.rate_limits, ...rate_limits } });
    return state.config;
  });

  app.post('/messaging/connectors', async (req, reply) => {
    const body = parse(NewConnector, req.body, reply);
    if (!body) return reply;
    const c = state.connectors.register({ hostDomain: body.host_domain ?? undefined, handoff: body.handoff ?? true, rateLimits: body.rate_limits });
    return { connector_token: c.token, connector_id: c.id, host_domain: c.hostDomain ?? null, handoff: c.handoff };
  });
  app.delete<{ Params: { token: string } }>('/messaging/connectors/:token', async (req, reply) =>
    state.connectors.remove(req.params.token) ? { deleted: true } : reply.code(404).send({ error_message: 'no such connector' }),
  );

  // Ageing a connector's access-token rate window is the same as that much time passing for it alone.
  app.post<{ Params: { token: string } }>('/messaging/connectors/:token/rate-limit/age', async (req, reply) => {
    const body = parse(Age, req.body, reply);
    if (!body) return reply;
    const c = state.connectors.byToken(req.params.token);
    if (!c) return reply.code(404).send({ error_message: 'no such connector' });
    return { aged: state.limiter.age(accessTokenLimitKey(c.id), body.ms) };
  });

  app.post('/messaging/faults', async (req, reply) => {
    const body = parse(Fault, req.body, reply);
    if (!body) return reply;
    if ('session_id' in body) {
      const session = state.sessions.get(body.session_id);
      if (!session) return noSession(reply);
      session.faults.push(body.fault);
    } else {
      const key = 'connector_token' in body ? body.connector_token : state.verifyToken(body.access_token, { ignoreExpiry: true });
      const id = typeof key === 'string' ? key : key.ok ? key.claims.jti : undefined;
      if (!id) return reply.code(400).send({ error_message: 'access_token is not a token this target issued' });
      state.httpFaults.set(id, [...(state.httpFaults.get(id) ?? []), body.fault as HttpFault]);
    }
    return { armed: body.fault };
  });

  app.post('/messaging/tokens/age', async (req, reply) => {
    const body = parse(TokenAge, req.body, reply);
    if (!body) return reply;
    const verdict = state.verifyToken(body.access_token, { ignoreExpiry: true });
    if (!verdict.ok) return reply.code(400).send({ error_message: 'access_token is not a token this target issued' });
    const age = (state.tokenAge.get(verdict.claims.jti) ?? 0) + body.ms;
    state.tokenAge.set(verdict.claims.jti, age);
    return { aged_ms: age, expires_at: new Date(verdict.claims.exp * 1000 - age).toISOString() };
  });

  app.get<Params>('/messaging/sessions/:id', async (req, reply) => {
    const s = state.sessions.get(req.params.id);
    if (!s) return noSession(reply);
    return {
      session_id: s.id,
      connector_id: s.connectorId,
      streaming_enabled: s.streaming,
      platform: s.platform,
      user_agent: s.userAgent ?? null,
      agent_joined: s.agentJoined,
      conversation_id: s.conversationId ?? null,
      live_agent: s.liveAgent,
      sockets: state.socketsOf(s.id).size,
      history: s.history.length,
      idle_ms: state.ctx.clock.now() - s.lastActivityAt,
      dropped_messages: s.dropped,
    };
  });
  app.delete<Params>('/messaging/sessions/:id', async (req, reply) => (state.sessions.delete(req.params.id) ? { deleted: true } : noSession(reply)));
  // Ageing one session is the same as that much idle time passing for it alone.
  app.post<Params>('/messaging/sessions/:id/age', async (req, reply) => {
    const body = parse(Age, req.body, reply);
    if (!body) return reply;
    const s = state.sessions.get(req.params.id);
    if (!s) return noSession(reply);
    s.lastActivityAt -= body.ms;
    return { idle_ms: state.ctx.clock.now() - s.lastActivityAt };
  });
  // The other side of a handoff: the live agent writes, and the session's sockets (and its history) get it.
  app.post<Params>('/messaging/sessions/:id/live-agent-message', async (req, reply) => {
    const body = parse(LiveAgentMessage, req.body, reply);
    if (!body) return reply;
    const s = state.sessions.get(req.params.id);
    if (!s) return noSession(reply);
    if (!liveAgentSays(state, s, body.text)) return reply.code(409).send({ error: 'no live agent has joined this session' });
    return { sent: true };
  });
  app.delete<Params>('/messaging/sessions/:id/conversation', async (req, reply) => {
    const s = state.sessions.get(req.params.id);
    if (!s?.conversationId) return noSession(reply);
    state.conversations.delete(s.conversationId);
    return { removed: s.conversationId };
  });
}
