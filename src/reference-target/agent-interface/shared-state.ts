import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AgentsErrors, API_KEY_HEADER } from '../../contract/agents/shapes.js';
import type { TargetContext } from '../context.js';
import { sendApiError } from './errors.js';
import { type KeyOwner, KeyRegistry } from './keys.js';
import { MetricsRecorder, type Sample } from './metrics.js';

/** State the agents and alerts surfaces share on one target: who keys belong to, and the traffic they made. */
export interface Family {
  readonly keys: KeyRegistry;
  readonly metrics: MetricsRecorder;
}

const families = new WeakMap<TargetContext, Family>();

/**
 * What the shared conversation store holds, as samples of the reference account: every turn (chat
 * today, other channels once they store turns there) with its latency, and every voice call.
 */
export function* conversationSamples(ctx: Pick<TargetContext, 'tenant' | 'conversations'>): Iterable<Sample> {
  const base = { accountId: ctx.tenant.accountId, projectIds: [ctx.tenant.projectId, ctx.tenant.projectSlug] };
  for (const c of ctx.conversations.values()) {
    // Compared as a string so the check holds however the store's source union grows.
    if ((c.source as string) === 'voice') yield { ...base, at: c.startedAt, kind: 'call', crashed: false };
    for (const t of c.turns) yield { ...base, at: t.agentAt, kind: 'turn', latencyMs: t.agentAt - t.userAt };
  }
}

/** The family state of a target, made on first use so both surfaces get the same one. */
export function familyOf(ctx: TargetContext): Family {
  let f = families.get(ctx);
  if (!f) {
    f = {
      keys: new KeyRegistry(ctx.tenant, ctx.credentials.agents_api_key, ctx.credentials.agents_other_workspace_key),
      metrics: new MetricsRecorder(() => conversationSamples(ctx)),
    };
    families.set(ctx, f);
  }
  return f;
}

const owners = new WeakMap<FastifyRequest, KeyOwner>();

/** The owner of the request's key, once `requireKey` has accepted it. */
export function ownerOf(req: FastifyRequest): KeyOwner {
  const o = owners.get(req);
  if (!o) throw new Error('route reached without an accepted API key');
  return o;
}

/**
 * Adds the x-api-key check (401 for a missing or unknown key) to a scope, and records every answered
 * request of a known key as API traffic of its account, so api_errors counts the target's own errors.
 */
export function requireKey(scope: FastifyInstance, ctx: TargetContext): void {
  const { keys, metrics } = familyOf(ctx);
  scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const raw = req.headers[API_KEY_HEADER];
    const owner = keys.owner(typeof raw === 'string' ? raw : undefined);
    if (!owner) return sendApiError(reply, AgentsErrors.UNAUTHENTICATED, [{ field: API_KEY_HEADER, message: 'a valid API key is required' }]);
    owners.set(req, owner);
  });
  scope.addHook('onResponse', async (req, reply) => {
    const owner = owners.get(req);
    if (owner) metrics.record({ at: ctx.clock.now(), kind: 'api', accountId: owner.accountId, projectIds: [], error: reply.statusCode >= 400 });
  });
}
