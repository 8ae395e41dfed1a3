import type { FastifyInstance } from 'fastify';
import { isRecord } from '../http.js';
import { isSupportedSchema } from './json-schema.js';
import { type Agent, type AgentStore, ID_FORMATS } from './store.js';

type AgentParams = { agentId: string };

/** What the control surface shows of an agent: the state no documented path reads back. */
function inspect(a: Agent) {
  return {
    agentId: a.agentId,
    workspaceId: a.workspaceId,
    branches: [...a.branches.values()].map((b) => ({
      branchId: b.branchId,
      name: b.name,
      behavior: b.behavior,
      topics: b.topics.map((t) => t.name),
      revision: b.revision,
    })),
    deployments: a.deployments.length,
    configs: Object.fromEntries([...a.configs].map(([name, page]) => [name, { schema: page.schema, variables: page.variables }])),
  };
}

/**
 * Test-only agent endpoints under `/agents/…` of the control surface: read an agent's state, force
 * internal errors on one agent, and define a real-time config page's JSON Schema (whose documented
 * path is not shown).
 */
export function registerAgentsControl(app: FastifyInstance, store: AgentStore): void {
  const agentOr404 = (id: string) => store.get(id);

  app.get<{ Params: AgentParams }>('/agents/:agentId', async (req, reply) => {
    const a = agentOr404(req.params.agentId);
    return a ? inspect(a) : reply.code(404).send({ error_message: 'no such agent' });
  });

  app.put<{ Params: AgentParams }>('/agents/:agentId/fault', async (req, reply) => {
    const a = agentOr404(req.params.agentId);
    if (!a) return reply.code(404).send({ error_message: 'no such agent' });
    const on = isRecord(req.body) ? req.body.internal_error : undefined;
    if (typeof on !== 'boolean') return reply.code(400).send({ error_message: 'internal_error must be a boolean' });
    a.internalError = on;
    return { agentId: a.agentId, internal_error: on };
  });

  app.put<{ Params: AgentParams & { config: string } }>('/agents/:agentId/real-time-configs/:config/schema', async (req, reply) => {
    const a = agentOr404(req.params.agentId);
    if (!a) return reply.code(404).send({ error_message: 'no such agent' });
    if (!ID_FORMATS.config.test(req.params.config)) return reply.code(400).send({ error_message: 'malformed config name' });
    const schema = isRecord(req.body) ? req.body.schema : undefined;
    if (!isSupportedSchema(schema)) return reply.code(400).send({ error_message: 'schema must be a JSON Schema object using supported keywords' });
    a.configs.set(req.params.config, { schema, variables: {}, pending: undefined });
    return { config: req.params.config, schema };
  });
}
