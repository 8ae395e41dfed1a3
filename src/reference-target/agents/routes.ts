import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AGENT_NAME_MAX,
  AGENT_NAME_MIN,
  AgentsErrors,
  AgentsPathsNotShown,
  BehaviorUpdateRequest,
  BranchCreateRequest,
  type Deployment,
  DeploymentsListQuery,
  KnowledgeBaseTopicCreateRequest,
  nextEnvironment,
  PublishRequest,
  RealTimeConfigVariablesUpdate,
} from '../../contract/agents/shapes.js';
import type { ErrorEntry } from '../../contract/rule.js';
import { issuesToErrors, sendApiError, useApiErrorBodies } from '../agent-interface/errors.js';
import type { KeyOwner } from '../agent-interface/keys.js';
import { familyOf, ownerOf, requireKey } from '../agent-interface/shared-state.js';
import type { TargetContext } from '../context.js';
import { notShown } from '../not-shown.js';
import type { SurfaceModule } from '../surface.js';
import { registerAgentsControl } from './control-routes.js';
import { validateJsonSchema } from './json-schema.js';
import { type Agent, AgentStore, type Branch, diverged, ID_FORMATS } from './store.js';

type Params = { agentId?: string; branchId?: string; deploymentId?: string; config?: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string | undefined> }>;

/** What a handler gets: the request, its key's owner, and the path's resources already looked up. */
interface Call {
  readonly ctx: TargetContext;
  readonly store: AgentStore;
  readonly owner: KeyOwner;
  readonly req: Req;
  readonly reply: FastifyReply;
  readonly agent: Agent;
  readonly branch: Branch;
  readonly deployment: Deployment;
}
type Handler = (c: Call) => unknown;

/** A name's length in characters (Unicode code points, so an astral character counts once), or, a defect's, in UTF-8 bytes. */
const lengthIn = (unit: 'characters' | 'bytes') => (name: string) => (unit === 'bytes' ? Buffer.byteLength(name, 'utf8') : [...name].length);

/** An agent create body; the name bounds come from the spec (one defect lets 129 through, another counts bytes). */
const agentCreate = (max: number, unit: 'characters' | 'bytes') =>
  z.object({
    name: z
      .string({ error: AgentsErrors.NAME_LENGTH.text })
      .refine((name) => lengthIn(unit)(name) >= AGENT_NAME_MIN && lengthIn(unit)(name) <= max, AgentsErrors.NAME_LENGTH.text),
    description: z.string().optional(),
  });

/** Parses a body with a schema or answers 400 with one `{field, message}` per issue. */
function parse<S extends z.ZodType>(schema: S, value: unknown, reply: FastifyReply, prefix?: string): z.infer<S> | undefined {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  sendApiError(reply, AgentsErrors.VALIDATION, issuesToErrors(r.error, prefix));
  return undefined;
}

const agentView = (a: Agent) => ({
  agentId: a.agentId,
  name: a.name,
  ...(a.description !== undefined ? { description: a.description } : {}),
  defaultBranch: 'main' as const,
  workspaceId: a.workspaceId,
  createdAt: a.createdAt,
});
const branchView = (b: Branch) => ({ branchId: b.branchId, name: b.name, createdAt: b.createdAt });

const listAgents: Handler = ({ store, owner }) => ({ agents: store.list(owner.workspaceId).map(agentView) });

const createAgent: Handler = ({ ctx, store, owner, req, reply }) => {
  const max = ctx.defects.has('agents-name-129-accepted') ? AGENT_NAME_MAX + 1 : AGENT_NAME_MAX;
  const body = parse(agentCreate(max, ctx.defects.has('agents-name-counted-in-bytes') ? 'bytes' : 'characters'), req.body, reply);
  if (!body) return reply;
  const agent = store.create({ accountId: owner.accountId, workspaceId: owner.workspaceId, name: body.name, description: body.description });
  return reply.code(201).send({ ...agentView(agent), branches: [...agent.branches.values()].map(branchView) });
};

const createBranch: Handler = ({ store, agent, req, reply }) => {
  const body = parse(BranchCreateRequest, req.body, reply);
  if (!body) return reply;
  return reply.code(201).send(branchView(store.branch(agent, body.name)));
};

const merge: Handler = ({ ctx, store, agent, branch, reply }) => {
  if (branch.branchId === 'main') return sendApiError(reply, AgentsErrors.MERGE_MAIN, [{ field: 'branchId', message: AgentsErrors.MERGE_MAIN.text }]);
  if (diverged(branch, store.main(agent)) && !ctx.defects.has('agents-merge-diverged-accepted')) {
    return sendApiError(reply, AgentsErrors.BRANCH_DIVERGED, [{ field: 'branchId', message: 'both the branch and main changed since the branch was made' }]);
  }
  store.merge(agent, branch);
  return { branchId: branch.branchId, merged: true, into: 'main', mainRevision: store.main(agent).revision };
};

const updateBehavior: Handler = ({ store, branch, req, reply }) => {
  const body = parse(BehaviorUpdateRequest, req.body, reply);
  if (!body) return reply;
  store.setBehavior(branch, body.behavior);
  return { branchId: branch.branchId, behavior: branch.behavior };
};

const createTopic: Handler = ({ store, branch, req, reply }) => {
  const body = parse(KnowledgeBaseTopicCreateRequest, req.body, reply);
  if (!body) return reply;
  return reply.code(201).send({ branchId: branch.branchId, ...store.addTopic(branch, body.name, body.content) });
};

/** Variables held back by the realtime defect take effect at the next publish. */
function applyPending(agent: Agent): void {
  for (const page of agent.configs.values()) {
    if (page.pending) page.variables = page.pending;
    page.pending = undefined;
  }
}

const publish: Handler = ({ store, owner, agent, req, reply }) => {
  const body = parse(PublishRequest, req.body, reply);
  if (!body) return reply;
  applyPending(agent);
  return reply.code(201).send(store.deploy(agent, body.environment, owner.keyId, {}));
};

const promote: Handler = ({ ctx, store, owner, agent, deployment, reply }) => {
  const next = nextEnvironment(deployment.environment as Parameters<typeof nextEnvironment>[0]);
  if (!next) return sendApiError(reply, AgentsErrors.ALREADY_LIVE, [{ field: 'deploymentId', message: AgentsErrors.ALREADY_LIVE.text }]);
  const promoted = store.deploy(agent, next, owner.keyId, { promotedFrom: deployment.id }, deployment.artifactVersion);
  if (ctx.defects.has('agents-promote-created-at-renamed')) {
    return reply.code(201).send(Object.fromEntries(Object.entries(promoted).map(([k, v]) => [k === 'createdAt' ? 'createdat' : k, v])));
  }
  return reply.code(201).send(promoted);
};

const listDeployments: Handler = ({ ctx, agent, req, reply }) => {
  const q = req.query;
  if (q.environment === undefined && !ctx.defects.has('agents-environment-optional')) {
    return sendApiError(reply, AgentsErrors.ENVIRONMENT_REQUIRED, [{ field: 'environment', message: AgentsErrors.ENVIRONMENT_REQUIRED.text }]);
  }
  const query = parse(DeploymentsListQuery.partial({ environment: true }), q, reply, 'query');
  if (!query) return reply;
  const direction = ctx.defects.has('agents-deployments-oldest-first') ? 1 : -1;
  const rows = agent.deployments
    .filter((d) => query.environment === undefined || d.record.environment === query.environment)
    .sort((a, b) => direction * (a.seq - b.seq))
    .map((d) => d.record);
  return { deployments: query.limit === undefined ? rows : rows.slice(0, query.limit) };
};

const updateVariables: Handler = ({ ctx, agent, req, reply }) => {
  const name = req.params.config ?? '';
  const page = agent.configs.get(name);
  if (!page) return sendApiError(reply, AgentsErrors.NOT_FOUND, [{ field: 'config', message: `no real-time config page '${name}'` }]);
  const body = parse(RealTimeConfigVariablesUpdate, req.body, reply);
  if (!body) return reply;
  const merged = { ...(page.pending ?? page.variables), ...body.variables };
  const violations = validateJsonSchema(page.schema, merged);
  if (violations.length > 0) {
    const errors = violations.map((v) => ({ field: v.path === '$' ? 'variables' : `variables.${v.path}`, message: v.message }));
    return sendApiError(reply, AgentsErrors.UNPROCESSABLE, errors);
  }
  if (ctx.defects.has('agents-realtime-requires-publish')) page.pending = merged;
  else page.variables = merged;
  return { config: name, variables: merged };
};

/** One row per documented agent operation (paths relative to /v1/agents). */
const ROUTES: readonly { method: 'GET' | 'POST' | 'PATCH'; url: string; handler: Handler }[] = [
  { method: 'GET', url: '/', handler: listAgents },
  { method: 'POST', url: '/', handler: createAgent },
  { method: 'POST', url: '/:agentId/branches', handler: createBranch },
  { method: 'POST', url: '/:agentId/branches/:branchId/merge', handler: merge },
  { method: 'PATCH', url: '/:agentId/branches/:branchId/behavior', handler: updateBehavior },
  { method: 'POST', url: '/:agentId/branches/:branchId/knowledge-base/topics', handler: createTopic },
  { method: 'POST', url: '/:agentId/deployments/publish', handler: publish },
  { method: 'POST', url: '/:agentId/deployments/:deploymentId/promote', handler: promote },
  { method: 'GET', url: '/:agentId/deployments', handler: listDeployments },
  { method: 'PATCH', url: '/:agentId/real-time-configs/:config/variables', handler: updateVariables },
];

type Found<T> = { value: T } | { error: ErrorEntry; field: string; message: string };

/** Looks up a path id: malformed is 422, unknown 404. */
function lookup<T>(field: keyof typeof ID_FORMATS, id: string | undefined, find: (id: string) => T | undefined): Found<T | undefined> {
  if (id === undefined) return { value: undefined };
  if (!ID_FORMATS[field].test(id)) return { error: AgentsErrors.UNPROCESSABLE, field, message: `malformed ${field}` };
  if (field === 'config') return { value: undefined };
  const value = find(id);
  return value === undefined ? { error: AgentsErrors.NOT_FOUND, field, message: `no such ${field}` } : { value };
}

/** Resolves the path's agent, branch and deployment, answering 422, 404, 403 or 500 when one cannot be used. */
function resolve(ctx: TargetContext, store: AgentStore, req: Req, reply: FastifyReply): Omit<Call, 'ctx' | 'store' | 'req' | 'reply'> | undefined {
  const owner = ownerOf(req);
  const p = req.params;
  const fail = (f: { error: ErrorEntry; field: string; message: string }) => {
    sendApiError(reply, f.error, [{ field: f.field, message: f.message }]);
    return undefined;
  };
  const a = lookup('agentId', p.agentId, (id) => store.get(id));
  if ('error' in a) return fail(a);
  const agent = a.value;
  if (agent && agent.workspaceId !== owner.workspaceId && !ctx.defects.has('agents-other-workspace-allowed')) {
    return fail({ error: AgentsErrors.FORBIDDEN, field: 'x-api-key', message: 'the key has no permission for the workspace of this agent' });
  }
  if (agent?.internalError) return fail({ error: AgentsErrors.INTERNAL, field: 'agentId', message: 'internal error (forced by the control surface)' });
  const b = lookup('branchId', p.branchId, (id) => agent?.branches.get(id));
  if ('error' in b) return fail(b);
  const d = lookup('deploymentId', p.deploymentId, (id) => (agent ? store.deployment(agent, id) : undefined));
  if ('error' in d) return fail(d);
  const c = lookup('config', p.config, () => undefined);
  if ('error' in c) return fail(c);
  // Handlers only read what their path names, so the casts hold.
  return { owner, agent: agent as Agent, branch: b.value as Branch, deployment: d.value as Deployment };
}

function registerAgents(app: FastifyInstance, ctx: TargetContext, store: AgentStore): void {
  app.register(
    async (scope) => {
      useApiErrorBodies(scope);
      requireKey(scope, ctx);
      for (const route of ROUTES) {
        scope.route<{ Params: Params; Querystring: Record<string, string | undefined> }>({
          method: route.method,
          url: route.url,
          handler: (req, reply) => {
            const found = resolve(ctx, store, req, reply);
            if (!found) return reply;
            return route.handler({ ctx, store, req, reply, ...found });
          },
        });
      }
      // The paths document 3 only names, as the suite asks for them: declined with the not-found answer, and marked so
      // that the reference target's contract lists them as not shown.
      const declined = [
        ...AgentsPathsNotShown.otherResources.map((path) => ({ method: 'GET' as const, path, ...notShown('agents.paths.other-resources') })),
        { method: 'POST' as const, path: AgentsPathsNotShown.rollback, ...notShown('agents.deployments.rollback') },
      ];
      for (const { method, path, config } of declined) {
        const url = path.replace(/^\/v1\/agents/, '').replace(/\{(\w+)\}/g, ':$1');
        scope.route({ method, url, config, handler: (_req, reply) => sendApiError(reply, AgentsErrors.NOT_FOUND) });
      }
    },
    { prefix: '/v1/agents' },
  );
}

/** The agent build-and-deploy interface (document 3) on the regional `agents_url` host. */
export const agentsSurface: SurfaceModule = {
  host: 'agents_url',
  create: (ctx) => {
    familyOf(ctx);
    const store = new AgentStore(ctx.clock, ctx.rng);
    return {
      register: (app) => registerAgents(app, ctx, store),
      control: (app) => registerAgentsControl(app, store),
    };
  },
};

/**
 * The agents family host without a region: every request answers 400 with the region error (the
 * document says only that it is invalid and returns an error). One defect serves the API there.
 */
export const agentsRegionlessSurface: SurfaceModule = {
  host: 'agents_regionless_url',
  create: (ctx) => ({
    register: (app) => {
      app.all('/*', async (_req, reply) => {
        if (ctx.defects.has('agents-regionless-served')) return { agents: [] };
        return sendApiError(reply, AgentsErrors.REGION_REQUIRED, [{ field: 'host', message: AgentsErrors.REGION_REQUIRED.text }]);
      });
    },
  }),
};
