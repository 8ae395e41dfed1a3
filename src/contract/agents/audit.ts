import { by, credentials, fields, type SurfaceAudit, unobservable } from '../audit.js';

/** Every documented agent operation (document 3, Endpoints), as `METHOD path`. */
export const AgentOperations = [
  'GET /v1/agents',
  'POST /v1/agents',
  'POST /v1/agents/{agentId}/branches',
  'POST /v1/agents/{agentId}/branches/{branchId}/merge',
  'PATCH /v1/agents/{agentId}/branches/{branchId}/behavior',
  'POST /v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics',
  'POST /v1/agents/{agentId}/deployments/publish',
  'POST /v1/agents/{agentId}/deployments/{deploymentId}/promote',
  'GET /v1/agents/{agentId}/deployments',
  'PATCH /v1/agents/{agentId}/real-time-configs/{config}/variables',
] as const;
export type AgentOperation = (typeof AgentOperations)[number];

/** The operations on one agent (every one but list and create): a key of another workspace is refused on each. */
export const AgentScopedOperations = AgentOperations.slice(2) as Exclude<AgentOperation, 'GET /v1/agents' | 'POST /v1/agents'>[];

const NO_AGENT_RECORDS = 'agent and branch records are not shown (agents.records.full-field-sets), so no documented operation reads a name back';
const NOT_READ_BACK = 'no documented operation reads a branch behaviour or knowledge-base topic back';

/** The key rules checked on every agent operation, a case per operation. */
export const AgentKeyChecks = credentials(['agents.auth.missing-key-401', 'agents.auth.invalid-key-401'], AgentOperations);
/** The workspace scope checked on every operation on one agent, a case per operation. */
export const AgentPermissionChecks = credentials(['agents.auth.permission-403'], AgentScopedOperations);

/** Where each agent behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const AgentsAudit = {
  credentials: [...AgentKeyChecks, ...credentials(['agents.auth.x-api-key-header'], ['GET /v1/agents']), ...AgentPermissionChecks],
  fields: [
    ...fields('POST /v1/agents', {
      name: unobservable(NO_AGENT_RECORDS),
      description: unobservable(NO_AGENT_RECORDS),
    }),
    ...fields('POST /v1/agents/{agentId}/branches', { name: unobservable(NO_AGENT_RECORDS) }),
    ...fields('PATCH /v1/agents/{agentId}/branches/{branchId}/behavior', { behavior: unobservable(NOT_READ_BACK) }),
    ...fields('POST /v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics', {
      name: unobservable(NOT_READ_BACK),
      content: unobservable(NOT_READ_BACK),
    }),
    ...fields('POST /v1/agents/{agentId}/deployments/publish', { environment: by('agents.deployments.publish-sandbox') }),
    ...fields('GET /v1/agents/{agentId}/deployments', {
      environment: by('agents.deployments.environment-filter'),
      limit: by('agents.deployments.limit-caps-count'),
    }),
    ...fields('PATCH /v1/agents/{agentId}/real-time-configs/{config}/variables', {
      variables: unobservable('no documented surface reads real-time config variables back'),
    }),
  ],
  events: [],
} satisfies SurfaceAudit;
