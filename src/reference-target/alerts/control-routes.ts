import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { AlertMetric } from '../../contract/alerts/shapes.js';
import type { SampleKind } from '../agent-interface/metrics.js';
import type { Family } from '../agent-interface/shared-state.js';
import type { TargetContext } from '../context.js';
import { isRecord } from '../http.js';
import type { Monitor } from './monitor.js';

type AccountParams = { accountId: string };

const MetricValue = z.object({ value: z.number().min(0).nullable(), project_id: z.string().optional() });
const Traffic = z.object({
  kind: z.enum(['api', 'turn', 'function', 'call'] satisfies SampleKind[]),
  count: z.number().int().min(1).max(10_000).default(1),
  project_id: z.string().optional(),
  latency_ms: z.number().min(0).optional(),
  error: z.boolean().optional(),
  crashed: z.boolean().optional(),
});

const bad = (reply: FastifyReply, message: string) => reply.code(400).send({ error_message: message });

/**
 * Test-only monitoring endpoints under `/alerts/…` of the control surface: mint an isolated account
 * (with its key), set metric values or inject traffic, make the monitoring backend fail, evaluate
 * now, and read the delivery attempts.
 */
export function registerAlertsControl(app: FastifyInstance, ctx: TargetContext, family: Family, monitor: Monitor): void {
  const known = (accountId: string, reply: FastifyReply) => {
    if (family.keys.hasAccount(accountId)) return true;
    reply.code(404).send({ error_message: 'no such account' });
    return false;
  };

  app.post('/alerts/accounts', async (_req, reply) => {
    const a = family.keys.mintAccount();
    return reply.code(201).send({ account_id: a.accountId, workspace_id: a.workspaceId, api_key: a.apiKey });
  });

  // The account of the profile's agents_api_key, where the shared conversation store's traffic lands.
  app.get('/alerts/accounts/reference', async () => ({ account_id: ctx.tenant.accountId }));

  app.put<{ Params: AccountParams & { metric: string } }>('/alerts/accounts/:accountId/metrics/:metric', async (req, reply) => {
    if (!known(req.params.accountId, reply)) return reply;
    const metric = AlertMetric.safeParse(req.params.metric);
    const body = MetricValue.safeParse(req.body);
    if (!metric.success || !body.success) return bad(reply, 'a known metric and {value: number >= 0 | null, project_id?} are required');
    family.metrics.override({ accountId: req.params.accountId, projectId: body.data.project_id }, metric.data, body.data.value);
    return { metric: metric.data, value: body.data.value };
  });

  app.delete<{ Params: AccountParams & { metric: string }; Querystring: { project_id?: string } }>(
    '/alerts/accounts/:accountId/metrics/:metric',
    async (req, reply) => {
      if (!known(req.params.accountId, reply)) return reply;
      const metric = AlertMetric.safeParse(req.params.metric);
      if (!metric.success) return bad(reply, 'unknown metric');
      family.metrics.override({ accountId: req.params.accountId, projectId: req.query.project_id }, metric.data, undefined);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: AccountParams }>('/alerts/accounts/:accountId/traffic', async (req, reply) => {
    if (!known(req.params.accountId, reply)) return reply;
    const t = Traffic.safeParse(req.body);
    if (!t.success) return bad(reply, `traffic: ${t.error.issues[0]?.message}`);
    const { kind, count, project_id, latency_ms, error, crashed } = t.data;
    const sample = {
      at: ctx.clock.now(),
      kind,
      accountId: req.params.accountId,
      projectIds: project_id ? [project_id] : [],
      latencyMs: latency_ms,
      error,
      crashed,
    };
    for (let i = 0; i < count; i++) family.metrics.record(sample);
    return { recorded: count };
  });

  app.put<{ Params: AccountParams }>('/alerts/accounts/:accountId/backend', async (req, reply) => {
    if (!known(req.params.accountId, reply)) return reply;
    const failing = isRecord(req.body) ? req.body.sync_failure : undefined;
    if (typeof failing !== 'boolean') return bad(reply, 'sync_failure must be a boolean');
    if (failing) monitor.syncFailures.add(req.params.accountId);
    else monitor.syncFailures.delete(req.params.accountId);
    return { sync_failure: failing };
  });

  app.post<{ Params: AccountParams }>('/alerts/accounts/:accountId/evaluate', async (req, reply) => {
    if (!known(req.params.accountId, reply)) return reply;
    const { transitions, deliveries } = await monitor.evaluateAccount(req.params.accountId);
    return {
      evaluated_at: new Date(ctx.clock.now()).toISOString(),
      transitions: transitions.map((t) => ({ id: t.rule.id, from: t.from, to: t.to, event: t.event ?? null })),
      deliveries,
    };
  });

  app.get<{ Params: AccountParams }>('/alerts/accounts/:accountId/deliveries', async (req, reply) => {
    if (!known(req.params.accountId, reply)) return reply;
    return { attempts: monitor.deliverer.attempts(req.params.accountId) };
  });
}
