import { credentials, type SurfaceAudit } from '../audit.js';

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

/** Where each agent behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const AgentsAudit = {
  credentials: credentials(['agents.auth.missing-key-401', 'agents.auth.invalid-key-401'], AgentOperations),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
