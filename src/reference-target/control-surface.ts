import type { FastifyInstance } from 'fastify';
import type { TargetContext } from './context.js';
import { isRecord } from './http.js';

/** Header that carries the control token; the control surface exists on the reference target only. */
export const CONTROL_HEADER = 'x-dialtone-control';

/**
 * The control surface: test-only operations a real environment cannot offer (advance the clock,
 * inspect state). It listens on its own port so it never shares a path space with the documented API.
 */
export function registerControl(app: FastifyInstance, ctx: TargetContext): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.url === '/health') return;
    if (req.headers[CONTROL_HEADER] !== ctx.credentials.controlToken) {
      await reply.code(401).send({ error_message: 'control token required' });
    }
  });
  app.get('/health', async () => ({ ok: true }));
  app.get('/state', async () => ({
    clock: { now: new Date(ctx.clock.now()).toISOString(), offset_ms: ctx.clock.offset },
    defects: ctx.defects.ids,
    conversations: ctx.conversations.size,
    retention: { max_count: ctx.retention.maxCount, max_age_ms: ctx.retention.maxAgeMs },
    latency: ctx.latency.describe(),
  }));
  app.post('/clock/advance', async (req, reply) => {
    const ms = isRecord(req.body) ? req.body.ms : undefined;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      return reply.code(400).send({ error_message: 'ms must be a non-negative number' });
    }
    ctx.clock.advance(ms);
    return { now: new Date(ctx.clock.now()).toISOString(), offset_ms: ctx.clock.offset };
  });
  app.get<{ Params: { id: string } }>('/conversations/:id', async (req, reply) => {
    const c = ctx.conversations.get(req.params.id);
    if (!c) return reply.code(404).send({ error_message: 'no such conversation' });
    return {
      id: c.id,
      source: c.source,
      channel: c.channel,
      variant_id: c.variantId ?? null,
      status: c.status,
      handoff: c.handoff ?? null,
      turns: c.turns.length,
    };
  });
}
