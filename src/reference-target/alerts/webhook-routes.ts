import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AgentsErrors } from '../../contract/agents/shapes.js';
import { WebhookEventType, WebhooksPaths } from '../../contract/webhooks/shapes.js';
import { issuesToErrors, sendApiError } from '../agent-interface/errors.js';
import { ownerOf } from '../agent-interface/shared-state.js';
import type { TargetContext } from '../context.js';
import { notShown } from '../not-shown.js';
import { endpointView, MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT, type StoredEndpoint } from './endpoint-store.js';
import type { Monitor } from './monitor.js';

const EventTypes = z
  .array(z.enum(WebhookEventType.options, { error: 'event_types entries must be alerts.triggered or alerts.resolved' }), {
    error: 'event_types must be an array',
  })
  .min(1, 'event_types must name at least one event type');

/** Create body: all three fields required, an http(s) url, at least one event type (reference choices). */
const EndpointCreate = z.object({
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  event_types: EventTypes,
});
const EndpointUpdate = EndpointCreate.partial();

type Req = FastifyRequest<{ Params: { endpointId?: string } }>;
type Handler = (req: Req, reply: FastifyReply, endpoint: StoredEndpoint) => unknown;

const ENDPOINT_ID = /^we_[0-9a-f]{16}$/;

function parse<S extends z.ZodType>(schema: S, value: unknown, reply: FastifyReply): z.infer<S> | undefined {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  sendApiError(reply, AgentsErrors.VALIDATION, issuesToErrors(r.error));
  return undefined;
}

/**
 * Registers webhook endpoints (paths relative to /v1). Create is documented; list, update, delete
 * and rotate-signing-secret are the reference's paths (not shown).
 */
export function registerWebhookRoutes(scope: FastifyInstance, ctx: TargetContext, monitor: Monitor): void {
  const withEndpoint =
    (handler: Handler) =>
    async (req: Req, reply: FastifyReply): Promise<unknown> => {
      const id = req.params.endpointId;
      // Paths without :endpointId never read the endpoint argument.
      if (id === undefined) return handler(req, reply, undefined as unknown as StoredEndpoint);
      if (!ENDPOINT_ID.test(id)) return sendApiError(reply, AgentsErrors.UNPROCESSABLE, [{ field: 'id', message: 'malformed webhook endpoint id (we_…)' }]);
      const e = monitor.endpoints.get(ownerOf(req).accountId, id);
      if (!e) return sendApiError(reply, AgentsErrors.NOT_FOUND, [{ field: 'id', message: 'no such webhook endpoint' }]);
      return handler(req, reply, e);
    };

  const create: Handler = (req, reply) => {
    const owner = ownerOf(req);
    const body = parse(EndpointCreate, req.body, reply);
    if (!body) return reply;
    if (monitor.endpoints.forAccount(owner.accountId).length >= MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT) {
      return sendApiError(reply, AgentsErrors.WEBHOOK_ENDPOINT_LIMIT, [
        { field: 'body', message: `at most ${MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT} webhook endpoints per account` },
      ]);
    }
    const e = monitor.endpoints.create(owner.accountId, { ...body, event_types: [...new Set(body.event_types)] }, new Date(ctx.clock.now()).toISOString());
    return reply.code(201).send({ ...endpointView(e), signing_secret: e.signing_secret });
  };

  const list: Handler = (req) => ({
    data: monitor.endpoints
      .forAccount(ownerOf(req).accountId)
      .map((e) => (ctx.defects.has('webhooks-secret-in-list') ? { ...endpointView(e), signing_secret: e.signing_secret } : endpointView(e))),
  });

  const update: Handler = (req, reply, e) => {
    const body = parse(EndpointUpdate, req.body, reply);
    if (!body) return reply;
    if (body.name !== undefined) e.name = body.name;
    if (body.url !== undefined) e.url = body.url;
    if (body.event_types !== undefined) e.event_types = [...new Set(body.event_types)];
    return endpointView(e);
  };

  const base = WebhooksPaths.endpoints.replace(/^\/v1/, '');
  // "Paths for webhook endpoint list, update, delete and the rotate-signing-secret operation are not shown."
  const other = notShown('webhooks.endpoint.other-paths');
  const routes: readonly { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; handler: Handler; config?: typeof other.config }[] = [
    { method: 'POST', url: base, handler: create },
    { method: 'GET', url: base, handler: list, ...other },
    { method: 'PATCH', url: `${base}/:endpointId`, handler: update, ...other },
    {
      ...other,
      method: 'DELETE',
      url: `${base}/:endpointId`,
      handler: (_req, reply, e) => {
        monitor.endpoints.delete(e);
        return reply.code(204).send();
      },
    },
    {
      ...other,
      method: 'POST',
      url: `${base}/:endpointId/rotate-signing-secret`,
      handler: (_req, _reply, e) => ({ id: e.id, signing_secret: monitor.endpoints.rotate(e) }),
    },
  ];
  for (const r of routes) scope.route({ method: r.method, url: r.url, config: r.config, handler: withEndpoint(r.handler) });
}
